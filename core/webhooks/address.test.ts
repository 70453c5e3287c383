// Where a webhook may go from a public shop (docs/product/delivery.md#webhooks): https, and public
// addresses only — literal ones checked as written, names by every address they resolve to.
import { describe, expect, it } from "vitest";
import { endpointUrlProblem, isPublicAddress } from "./address.ts";
import { retryDelayMs, signatureHeader } from "./index.ts";
import { createHmac } from "node:crypto";

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, shared, documentation, multicast and mapped private addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "ff02::1",
      "2001:db8::1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
  it("accepts ordinary public addresses", () => {
    for (const address of ["93.184.215.14", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(address), address).toBe(true);
  });
});

describe("endpointUrlProblem", () => {
  it("on a public shop: https to a public address only", async () => {
    expect(await endpointUrlProblem("https://93.184.215.14/hook", false)).toBeNull();
    expect(await endpointUrlProblem("http://93.184.215.14/hook", false)).toBe("not https");
    expect(await endpointUrlProblem("https://127.0.0.1/hook", false)).toBe("not a public address");
    expect(await endpointUrlProblem("https://[::1]:8443/hook", false)).toBe("not a public address");
    expect(await endpointUrlProblem("https://169.254.169.254/latest/meta-data", false)).toBe("not a public address");
    // A name is judged by what it resolves to.
    expect(await endpointUrlProblem("https://localhost/hook", false)).toBe("not a public address");
    expect(await endpointUrlProblem("https://user:pass@93.184.215.14/", false)).toBe("credentials in the URL");
    expect(await endpointUrlProblem("ftp://93.184.215.14/", false)).toBe("not https");
  });
  it("on a loopback shop: http and any address", async () => {
    expect(await endpointUrlProblem("http://127.0.0.1:9999/hook", true)).toBeNull();
    expect(await endpointUrlProblem("ftp://127.0.0.1/", true)).toBe("not http(s)");
  });
});

describe("signatures and backoff", () => {
  it('Nova-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const body = '{"id":"evt_1"}';
    const mac = createHmac("sha256", "whsec_test").update(`1700000000.${body}`).digest("hex");
    expect(signatureHeader("whsec_test", body, 1_700_000_000)).toBe(`t=1700000000,v1=${mac}`);
  });
  it("waits 30 s after the first failure, doubling up to an hour", () => {
    expect([1, 2, 3, 4, 7, 8, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000]);
  });
});
