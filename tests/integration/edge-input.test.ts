// Bad input at the edge (issue 7, point 12): a control character (NUL above all, which PostgreSQL
// cannot store) in a JSON body, a query string or a page form, and ids beyond int4, get 400 — never
// a 500 — on the API and on the pages; a slow client is cut off in seconds.
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createHttpServer } from "../../server/main.ts";
import { TEST_ORIGIN, useTestApp } from "../kit/app.ts";
import { startTestApp } from "../kit/app.ts";
import { DEMO } from "../../db/seed.ts";
import { cookieHeader } from "../kit/shop.ts";

const shop = useTestApp({ env: { TRUST_PROXY: "1" } });

let serial = 0;
const email = () => `edge-${process.pid}-${Date.now()}-${++serial}@example.com`;

async function api(method: "GET" | "POST", path: string, options: { json?: unknown; token?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { "accept-language": "en", "x-forwarded-for": `10.9.${serial % 250}.${++serial % 250}` };
  if (options.json !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: TEST_ORIGIN });
  const res = await shop.request(path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

async function signUp() {
  const reply = await api("POST", "/v2/web/register", { json: { email: email(), password: "Quartz-Lantern-42" } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.token as string;
}

function form(path: string, fields: Record<string, string>, cookie?: string) {
  return shop.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: TEST_ORIGIN,
      "sec-fetch-site": "same-origin",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const NUL = "a\u0000b";

describe("control characters in JSON bodies", () => {
  it.each([
    ["/v2/web/login", { login: NUL, password: "whatever-1" }, "login"],
    ["/v2/web/register", { email: "nul@example.com", password: "Quartz-Lantern-42", t: NUL }, "t"],
    ["/v2/web/register", { email: "nul2@example.com", password: "Quartz-Lantern-42", referrer: "FRIEND\u0001" }, "referrer"],
    ["/v2/web/login", { login: "demo@example.com", password: "demo12345", [`x${NUL}`]: 1 }, `x${NUL}`],
  ])("POST %s with %o → 400 naming the field", async (path, json, field) => {
    const reply = await api("POST", path, { json });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ status: false, code: "validation_failed", errors: { [field]: "This value contains characters that are not allowed." } });
  });

  it("refuses a NUL in a nested value of a signed-in call (gift recipient)", async () => {
    const token = await signUp();
    const reply = await api("POST", "/v2/web/user/gift", { json: { product_id: DEMO.products.dota2.days1.id, recipient: NUL }, token });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ code: "validation_failed", errors: { recipient: expect.any(String) } });
  });

  it("ignores a referrer cookie holding a NUL instead of failing the registration", async () => {
    const reply = await api("POST", "/v2/web/register", { json: { email: email(), password: "Quartz-Lantern-42" }, cookie: "referrer=FRIEND%00" });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe("query strings and numbers", () => {
  it("refuses a control character in any query parameter, API and pages alike", async () => {
    const token = await signUp();
    const reply = await api("GET", "/v2/web/user/transactions?limit=10&skip=0&note=a%00b", { token });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "validation_failed", errors: { note: expect.any(String) } });
    expect((await shop.request("/en/auth/restore-password?email=a%00b%40example.com&code=123456")).status).toBe(400);
    expect((await shop.request("/en/minecraft?x=%01")).status).toBe(400);
  });

  it.each([
    ["/v2/web/user/statistics?cheat_id=2147483648"],
    ["/v2/web/user/statistics?cheat_id=99999999999"],
    ["/v2/web/user/transactions?before=1e300"],
    ["/v2/web/user/transactions?before=9007199254740993"],
  ])("GET %s → 400 (numbers are bounded)", async (path) => {
    const token = await signUp();
    const reply = await api("GET", path, { token });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ code: "validation_failed" });
  });

  it("still takes the largest id of each kind", async () => {
    const token = await signUp();
    expect((await api("GET", "/v2/web/user/statistics?cheat_id=2147483647", { token })).status).toBe(200);
    expect((await api("GET", "/v2/web/user/transactions?before=2147483648", { token })).status).toBe(200);
  });
});

describe("page forms", () => {
  const signIn = async () => {
    const res = await form("/en/auth", { intent: "password", login: "demo@example.com", password: "demo12345" });
    expect(res.status).toBe(302);
    return cookieHeader(res);
  };

  it.each([
    ["/en/auth", { intent: "password", login: NUL, password: "demo12345" }],
    ["/en/auth/register", { email: "form@example.com", username: NUL, password: "Quartz-Lantern-42" }],
    ["/en/auth/restore-password", { intent: "request", email: NUL }],
  ])("POST %s with a NUL → 400", async (path, fields) => {
    const res = await form(path, fields);
    expect(res.status).toBe(400);
  });

  it("refuses a NUL and an id beyond int4 in the signed-in forms with 400", async () => {
    const cookie = await signIn();
    expect((await form("/en/give/subscription", { intent: "give", product: String(DEMO.products.dota2.days1.id), recipient: NUL }, cookie)).status).toBe(400);
    const big = await form("/en/give/subscription", { intent: "give", product: "99999999999" }, cookie);
    expect(big.status).toBe(400);
    expect(await big.text()).toContain("This value is not valid.");
    expect((await form("/en/give/subscription", { intent: "give", product: "2147483648" }, cookie)).status).toBe(400);
    expect((await form("/en/dota2/profile/settings", { intent: "email", email: `x${NUL}@example.com` }, cookie)).status).toBe(400);
  });
});

describe("slow clients", () => {
  it("cuts off a request whose body trickles in, within REQUEST_TIMEOUT_MS", async () => {
    const app = await startTestApp({ env: { REQUEST_TIMEOUT_MS: "1000" }, pages: false });
    const server = createHttpServer(app.services, app.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.on("error", () => {});
      socket.write(`POST /v2/web/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"login":`);
      // One byte now and then, as a slow-loris client sends: the server must not wait for the rest.
      const drip = setInterval(() => socket.writable && socket.write(" "), 200);
      // A deadline far below node's default of 300 s, far above the setting.
      const deadline = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 20_000).unref());
      const outcome = await Promise.race([closed.then(() => "closed" as const), deadline]);
      clearInterval(drip);
      socket.destroy();
      expect(outcome).toBe("closed");
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.stop();
    }
  });
});
