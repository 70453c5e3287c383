// The client API (docs/product/delivery.md#client-api, issue 11) on a manual clock, driven through the
// reference client (scripts/client-check.mjs) against the shop listening on a loopback port: a key
// activates a device and the signed entitlement verifies; a freeze makes the next heartbeat say "not
// entitled" and an unfreeze gives back the same remaining time; a second device is refused with 409
// device_limit; clearing devices waits DEVICE_RESET_COOLDOWN_DAYS; a regenerated key kills the old key
// and its devices; a refund, a suspension, an expiry and a game that is detected or in maintenance
// all revoke; a tampered payload fails the reference client's verification; bad keys, unknown tokens
// and malformed bodies get the envelope with a stable code and no hint whether a key exists.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cheats, licenceDevices } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { activate, fetchPublicKey, heartbeat, hwidHash, verifyEntitlement, type Entitlement } from "../../scripts/client-check.mjs";
import type { KitOrder } from "../kit/paypal.ts";
import { GAMES, PRODUCTS, registerUser, signIn, subscriptionOf, subscriptionsOf, useShop, type Reply, type User } from "../kit/shop.ts";
import { buyerWithPass } from "./delivery-kit.ts";
import { useListening } from "../kit/app.ts";

const run = promisify(execFile);
const CLIENT = path.resolve(import.meta.dirname, "../../scripts/client-check.mjs");
const MINUTE = 60_000;
const DAY = 86_400_000;

const clock = manualClock(new Date("2026-05-01T08:00:00.000Z"));
const shop = useShop({ clock, paypal: true, env: { DEVICE_LIMIT: "1", DEVICE_RESET_COOLDOWN_DAYS: "7" } });
const listening = useListening(shop);
let scratch = "";

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "client-check-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The reference client as an integrator runs it (as of the shop's clock): its exit status and the JSON it printed. */
async function clientCheck(...args: string[]): Promise<{ status: number; out: Record<string, unknown> }> {
  try {
    const { stdout } = await run(process.execPath, [CLIENT, ...args, "--url", listening.url, "--now", clock.now().toISOString()]);
    return { status: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    if (!failed.stdout) throw new Error(`client-check failed: ${failed.stderr}`);
    return { status: failed.code, out: JSON.parse(failed.stdout) };
  }
}

function clientCall(method: "GET" | "POST", p: string, o: { json?: unknown; token?: string; lang?: string } = {}): Promise<Reply> {
  return shop.call(method, p, { json: o.json, lang: o.lang, headers: o.token ? { authorization: `Bearer ${o.token}` } : {} });
}

const activateCall = (key: string, hwid: string, lang?: string) => clientCall("POST", "/v2/client/activate", { json: { key, hwid, client_version: "1.4.2" }, lang });
const heartbeatCall = (token: string, lang?: string) => clientCall("POST", "/v2/client/heartbeat", { token, lang });

/** A buyer with 30 days of dota2 bought from the balance, and the pass's licence key. */
async function buyer(): Promise<User & { key: string }> {
  const user = await buyerWithPass(shop, PRODUCTS.dota2.days30.id);
  expect(user.key).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
  return user;
}

/** The payload of an entitlement, after checking its signature with the shop's key. */
async function verified(entitlement: Entitlement, hwid?: string) {
  const result = verifyEntitlement(entitlement, await fetchPublicKey(listening.url), { hwid, now: clock.now().getTime() });
  expect(result.valid, JSON.stringify(result)).toBe(true);
  return (result as { payload: Record<string, unknown> }).payload;
}

async function pulse(token: string, hwid?: string) {
  const reply = await heartbeatCall(token);
  expect(reply.status, reply.text).toBe(200);
  return verified(reply.body.entitlement, hwid);
}

async function dotaPass(user: User) {
  return subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.dota2.id)!;
}

describe("activation and heartbeat", () => {
  it("activates a key through the reference client: a signed entitlement for this device, entitled, valid 15 minutes", async () => {
    const user = await buyer();
    const pass = await dotaPass(user);
    const { status, out } = await clientCheck("activate", "--key", user.key.toLowerCase(), "--hwid", "PC-ALPHA-0001", "--client-version", "2.0.1");
    expect(status, JSON.stringify(out)).toBe(0);
    expect(out).toMatchObject({ ok: true, entitled: true });
    expect(out.payload).toEqual({
      licence: expect.stringMatching(/^[0-9a-f]{16}$/),
      cheat_id: GAMES.dota2.id,
      hwid: hwidHash("PC-ALPHA-0001"),
      entitled: true,
      state: "active",
      expires_at: pass.expires_at,
      game_status: "working",
      issued_at: clock.now().toISOString(),
      valid_until: new Date(clock.now().getTime() + 15 * MINUTE).toISOString(),
    });
    // The token works for heartbeats, which the reference client checks the same way.
    const beat = await clientCheck("heartbeat", "--token", String(out.token), "--hwid", "PC-ALPHA-0001");
    expect(beat.status, JSON.stringify(beat.out)).toBe(0);
    // The device is listed for its buyer, with its version; the hwid is stored only hashed.
    const licence = await shop.call("GET", `/v2/web/user/licence?cheat_id=${GAMES.dota2.id}`, { token: user.token });
    expect(licence.body.licence).toMatchObject({ key: user.key, device_limit: 1, reset_available_at: null, devices: [{ client_version: "2.0.1" }] });
    const rows = await shop.services.db.select().from(licenceDevices);
    expect(JSON.stringify(rows)).not.toContain("PC-ALPHA-0001");
    expect(JSON.stringify(rows)).not.toContain(String(out.token));
  });

  it("freeze: the next heartbeat says not entitled; unfreeze: entitled again with the same time left", async () => {
    const user = await buyer();
    const { token, entitlement } = await activate(listening.url, { key: user.key, hwid: "PC-FREEZE" });
    const before = await verified(entitlement, "PC-FREEZE");
    expect(before).toMatchObject({ entitled: true, state: "active" });

    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);
    expect(await pulse(token, "PC-FREEZE")).toMatchObject({ entitled: false, state: "frozen", expires_at: null });
    // Unfrozen at once: the very same expiry.
    expect((await shop.call("POST", "/v2/web/user/subscriptions/unfreeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);
    expect(await pulse(token, "PC-FREEZE")).toMatchObject({ entitled: true, state: "active", expires_at: before.expires_at });
  });

  it("a freeze of three days moves the expiry by exactly those three days", async () => {
    const user = await buyer();
    // The cooldown after an unfreeze would refuse a second freeze: a fresh buyer.
    const { token } = await activate(listening.url, { key: user.key, hwid: "PC-LONG-FREEZE" });
    const start = (await pulse(token)).expires_at as string;
    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);
    clock.advance(3 * DAY);
    await signIn(shop, user);
    const frozen = await heartbeatCall(token);
    expect(JSON.parse(frozen.body.entitlement.payload)).toMatchObject({ entitled: false, state: "frozen" });
    expect((await shop.call("POST", "/v2/web/user/subscriptions/unfreeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);
    expect(await pulse(token)).toMatchObject({ entitled: true, expires_at: new Date(Date.parse(start) + 3 * DAY).toISOString() });
  });

  it("an entitlement never reaches past the pass's end, and an expired pass is not entitled", async () => {
    const user = await registerUser(shop, { balance: 1000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const key = subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.cs2.id)!.licence_key;
    const { token } = await activate(listening.url, { key, hwid: "PC-SHORT" });
    clock.advance(DAY - 5 * MINUTE);
    const last = await pulse(token);
    expect(last).toMatchObject({ entitled: true, valid_until: last.expires_at });
    clock.advance(5 * MINUTE);
    expect(await pulse(token)).toMatchObject({ entitled: false, state: "expired" });
  });

  it("re-activating the same device renews its token (the old one stops); a second device gets 409 device_limit", async () => {
    const user = await buyer();
    const first = await activate(listening.url, { key: user.key, hwid: "PC-ONE" });
    const again = await activateCall(user.key, "PC-ONE");
    expect(again.status, again.text).toBe(200);
    expect((await heartbeatCall(first.token)).body.code).toBe("invalid_token");
    expect((await heartbeatCall(again.body.token)).status).toBe(200);

    const other = await activateCall(user.key, "PC-TWO", "ru");
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ status: false, code: "device_limit" });
    expect(other.body.message).toMatch(/устройств/);
    const { status, out } = await clientCheck("activate", "--key", user.key, "--hwid", "PC-TWO");
    expect(status).toBe(3);
    expect(out).toMatchObject({ ok: false, status: 409, code: "device_limit" });
  });

  it("clearing the devices frees the licence once per DEVICE_RESET_COOLDOWN_DAYS", async () => {
    const user = await buyer();
    const one = await activate(listening.url, { key: user.key, hwid: "PC-RESET-1" });
    const clear = () => shop.call("POST", "/v2/web/user/licence/devices/clear", { token: user.token, json: { cheat_id: GAMES.dota2.id } });
    const cleared = await clear();
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.licence).toMatchObject({ devices: [], reset_available_at: new Date(clock.now().getTime() + 7 * DAY).toISOString() });
    expect((await heartbeatCall(one.token)).status).toBe(401);
    // The freed slot goes to another device.
    expect((await activateCall(user.key, "PC-RESET-2")).status).toBe(200);
    expect((await activateCall(user.key, "PC-RESET-3")).body.code).toBe("device_limit");

    const early = await clear();
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("device_reset_cooldown");
    clock.advance(7 * DAY - 1000);
    await signIn(shop, user);
    expect((await clear()).body.code).toBe("device_reset_cooldown");
    clock.advance(1000);
    expect((await clear()).status).toBe(200);
    expect((await activateCall(user.key, "PC-RESET-3")).status).toBe(200);
  });

  it("a regenerated key kills the old key and every device bound to it", async () => {
    const user = await buyer();
    const device = await activate(listening.url, { key: user.key, hwid: "PC-REGEN" });
    const regenerated = await shop.call("POST", "/v2/web/user/licence/regenerate", { token: user.token, json: { cheat_id: GAMES.dota2.id } });
    expect(regenerated.status, regenerated.text).toBe(200);
    const fresh = regenerated.body.licence.key as string;
    expect(fresh).not.toBe(user.key);
    expect(regenerated.body.licence.devices).toEqual([]);
    expect((await dotaPass(user)).licence_key).toBe(fresh);

    expect((await heartbeatCall(device.token)).body.code).toBe("invalid_token");
    const old = await activateCall(user.key, "PC-REGEN");
    expect(old.status).toBe(403);
    expect(old.body.code).toBe("invalid_key");
    const renewed = await activate(listening.url, { key: fresh, hwid: "PC-REGEN" });
    expect(await verified(renewed.entitlement, "PC-REGEN")).toMatchObject({ entitled: true });
  });
});

describe("what revokes", () => {
  async function paidBuyer(): Promise<{ user: User; order: KitOrder; key: string }> {
    const user = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { product_id: PRODUCTS.minecraft.days30.id } });
    expect(created.status, created.text).toBe(200);
    shop.paypal.approve(created.body.order_id);
    const captured = await shop.call("POST", "/v2/web/payment/paypal/capture", { token: user.token, json: { order_id: created.body.order_id } });
    expect(captured.status, captured.text).toBe(200);
    return { user, order: shop.paypal.orders.get(created.body.order_id)!, key: subscriptionOf(captured, GAMES.minecraft.id)!.licence_key };
  }

  it("a full refund of the purchase: the next heartbeat is not entitled", async () => {
    const { order, key } = await paidBuyer();
    const { token } = await activate(listening.url, { key, hwid: "PC-REFUND" });
    expect(await pulse(token)).toMatchObject({ entitled: true });
    clock.advance(DAY);
    const refundId = shop.paypal.refund(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId });
    expect((await shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) })).status).toBe(200);
    expect(await pulse(token)).toMatchObject({ entitled: false, state: "expired" });
  });

  it("a suspended account: not entitled while suspended (its pass stays active)", async () => {
    const user = await buyer();
    const { token } = await activate(listening.url, { key: user.key, hwid: "PC-SUSPEND" });
    await shop.services.db.transaction((tx) => shop.services.suspensions.suspend(tx, user.id, "operator"));
    expect(await pulse(token)).toMatchObject({ entitled: false, state: "active", game_status: "working" });
  });

  it("a game that is detected or in maintenance: not entitled until it works again", async () => {
    const user = await registerUser(shop, { balance: 10_000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days7.id } })).status).toBe(200);
    const key = subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.cs2.id)!.licence_key;
    const { token } = await activate(listening.url, { key, hwid: "PC-STATUS" });
    const setStatus = (status: "working" | "updating" | "detected" | "maintenance") => shop.services.db.update(cheats).set({ status }).where(eq(cheats.id, GAMES.cs2.id));
    try {
      for (const [status, entitled] of [
        ["detected", false],
        ["updating", true],
        ["maintenance", false],
        ["working", true],
      ] as const) {
        await setStatus(status);
        expect(await pulse(token)).toMatchObject({ entitled, game_status: status, state: "active" });
      }
    } finally {
      await setStatus("working");
    }
  });
});

describe("the reference client's verification", () => {
  it("refuses a tampered payload, another device's entitlement, a stale one and an unknown key id", async () => {
    const user = await buyer();
    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);
    const file = path.join(scratch, "frozen.json");
    const saved = await clientCheck("activate", "--key", user.key, "--hwid", "PC-TAMPER", "--save", file);
    expect(saved.status, JSON.stringify(saved.out)).toBe(1);
    expect(saved.out).toMatchObject({ ok: true, entitled: false });

    // The file as saved verifies (not entitled: status 1); with "entitled" flipped it does not.
    const kept = JSON.parse(readFileSync(file, "utf8")) as { token: string; entitlement: Entitlement };
    expect((await clientCheck("verify", "--file", file, "--hwid", "PC-TAMPER")).status).toBe(1);
    const tampered = { ...kept, entitlement: { ...kept.entitlement, payload: kept.entitlement.payload.replace('"entitled":false', '"entitled":true') } };
    expect(tampered.entitlement.payload).not.toBe(kept.entitlement.payload);
    writeFileSync(file, JSON.stringify(tampered));
    const refused = await clientCheck("verify", "--file", file, "--hwid", "PC-TAMPER");
    expect(refused).toEqual({ status: 2, out: { ok: false, entitled: false, reason: "bad_signature", payload: null } });

    const key = await fetchPublicKey(listening.url);
    const now = clock.now().getTime();
    expect(verifyEntitlement(kept.entitlement, key, { hwid: "PC-OTHER", now })).toMatchObject({ valid: false, reason: "other_device" });
    expect(verifyEntitlement(kept.entitlement, key, { hwid: "PC-TAMPER", now: now + 15 * MINUTE })).toMatchObject({ valid: false, reason: "stale" });
    expect(verifyEntitlement({ ...kept.entitlement, kid: "another-key-id" }, key, { now })).toMatchObject({ valid: false, reason: "unknown_kid" });
    // A signature covers its own payload only: a second later's heartbeat has another.
    clock.advance(1000);
    const other = (await heartbeat(listening.url, kept.token)).entitlement;
    expect(other.payload).not.toBe(kept.entitlement.payload);
    expect(verifyEntitlement({ ...other, signature: kept.entitlement.signature }, key, { now: now + 1000 })).toMatchObject({ valid: false, reason: "bad_signature" });
  });

  it("the public key names its algorithm and key id; every entitlement names the same kid", async () => {
    const reply = await clientCall("GET", "/v2/client/public-key");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true, key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), alg: "Ed25519" });
    const user = await buyer();
    const { entitlement } = await activate(listening.url, { key: user.key, hwid: "PC-KID" });
    expect(entitlement.kid).toBe(reply.body.kid);
  });
});

describe("bad input gets the envelope, a stable code and no hint", () => {
  it("an unknown key and a key of the wrong shape are the same invalid_key, in the caller's language", async () => {
    const unknown = await activateCall("00000000-0000-4000-8000-000000000000", "PC-X", "en");
    const garbage = await activateCall("not-a-key", "PC-X", "en");
    for (const reply of [unknown, garbage]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ status: false, code: "invalid_key", message: "This licence key is not valid." });
    }
    const ru = await activateCall("not-a-key", "PC-X", "ru");
    expect(ru.body.message).toBe("Этот лицензионный ключ недействителен.");
  });

  it("malformed bodies: 400 validation_failed naming the fields, invalid_json, and 415 for another type", async () => {
    const missing = await clientCall("POST", "/v2/client/activate", { json: { key: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: false, code: "validation_failed", errors: { hwid: expect.any(String) } });
    const wrongType = await clientCall("POST", "/v2/client/activate", { json: { key: 42, hwid: ["a"] } });
    expect(wrongType.body).toMatchObject({ code: "validation_failed", errors: { key: expect.any(String), hwid: expect.any(String) } });
    const broken = await shop.request("/v2/client/activate", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(broken.status).toBe(400);
    expect((await broken.json()).code).toBe("invalid_json");
    const form = await shop.request("/v2/client/activate", { method: "POST", headers: { "content-type": "text/plain" }, body: "key=1" });
    expect(form.status).toBe(415);
  });

  it("a heartbeat without a token, with an unknown one or with a web session's token is 401 invalid_token", async () => {
    const user = await buyer();
    for (const token of [undefined, "A".repeat(43), user.token]) {
      const reply = await clientCall("POST", "/v2/client/heartbeat", { token });
      expect(reply.status).toBe(401);
      expect(reply.body.code).toBe("invalid_token");
    }
  });

  it("the client calls need no origin check and take no cookie", async () => {
    const user = await buyer();
    const reply = await shop.call("POST", "/v2/client/activate", {
      json: { key: user.key, hwid: "PC-ORIGIN" },
      headers: { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site", cookie: `access_token=${user.token}` },
    });
    expect(reply.status, reply.text).toBe(200);
  });
});
