// Shared pieces of the delivery tests: the shop on a loopback port (for the reference client and the
// signed download links), an owner (OWNER_EMAILS, two-factor codes on) for the operators' calls,
// a buyer holding a pass, and a multipart build upload.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { users } from "../../db/schema/index.ts";
import { totpAt } from "../../core/accounts/totp.ts";
import type { Clock } from "../../core/shared/clock.ts";
import { createHttpServer } from "../../server/main.ts";
import { GAMES, registerUser, subscriptionOf, type Shop, type User } from "../kit/shop.ts";

/** The address of the shop on a loopback port, for the file's tests (the in-process app stays usable too). */
export function useListening(shop: Shop): { readonly url: string } {
  const state = { url: "", close: async () => {} };
  beforeAll(async () => {
    const server = createHttpServer(shop.services, shop.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    state.close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => state.close());
  return {
    get url() {
      return state.url;
    },
  };
}

/** The owner of the tests: the address OWNER_EMAILS names. */
export const OWNER_EMAIL = "owner@delivery.test";

/**
 * Registers an owner (OWNER_EMAIL unless told) and turns two-factor codes on (unless `twoFa` is
 * false); the clock moves one TOTP step.
 */
export async function registerOwner(shop: Shop, clock: Clock & { advance(ms: number): void }, { email = OWNER_EMAIL, twoFa = true }: { email?: string; twoFa?: boolean } = {}): Promise<User> {
  const owner = await registerUser(shop, { tag: "owner" });
  // registerUser() made up an address; the owner's is the configured one.
  const changed = await shop.services.db.update(users).set({ email }).where(eq(users.id, owner.id)).returning({ id: users.id });
  expect(changed).toHaveLength(1);
  if (!twoFa) return { ...owner, email };
  const enabled = await shop.call("POST", "/v2/web/user/2fa/enable", { token: owner.token, json: {} });
  expect(enabled.status, enabled.text).toBe(200);
  const confirmed = await shop.call("POST", "/v2/web/user/2fa/confirmEnable", { token: owner.token, json: { code: totpAt(enabled.body.secret, clock.now()) } });
  expect(confirmed.status, confirmed.text).toBe(200);
  clock.advance(30_000);
  return { ...owner, email };
}

/** A buyer with days of a game bought from the balance, and that pass's licence key. */
export async function buyerWithPass(shop: Shop, productId: number, cheatId: number = GAMES.dota2.id, options: { lang?: string } = {}): Promise<User & { key: string }> {
  const user = await registerUser(shop, { balance: 20_000, lang: options.lang });
  const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId } });
  expect(bought.status, bought.text).toBe(200);
  return { ...user, key: subscriptionOf(bought, cheatId)!.licence_key };
}

/** `POST /v2/admin/games/{id}/builds` as multipart, in process. */
export async function uploadBuild(shop: Shop, token: string | undefined, cheatId: number, parts: { file?: { bytes: Uint8Array<ArrayBuffer>; name: string }; version?: string; notes?: string }) {
  const form = new FormData();
  if (parts.version !== undefined) form.set("version", parts.version);
  if (parts.notes !== undefined) form.set("notes", parts.notes);
  if (parts.file) form.set("file", new Blob([parts.file.bytes]), parts.file.name);
  const headers: Record<string, string> = { "accept-language": "en", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await shop.request(`/v2/admin/games/${cheatId}/builds`, { method: "POST", body: form, headers });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), headers: res.headers };
}
