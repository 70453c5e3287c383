// Shared pieces of the delivery tests: the shop on a loopback port (for the reference client and the
// signed download links), a buyer holding a pass, and a multipart build upload. The operators of the
// builds' and webhooks' calls are the back office's (admin-kit.ts: makeOperator).
import { expect } from "vitest";
import { GAMES, registerUser, subscriptionOf, type Shop, type User } from "../kit/shop.ts";

/** A buyer with days of a game bought from the balance, and that pass's licence key. */
export async function buyerWithPass(shop: Shop, productId: number, cheatId: number = GAMES.dota2.id, options: { lang?: string } = {}): Promise<User & { key: string }> {
  const user = await registerUser(shop, { balance: 20_000, lang: options.lang });
  const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId } });
  expect(bought.status, bought.text).toBe(200);
  return { ...user, key: subscriptionOf(bought, cheatId)!.licence_key };
}

/** `POST /v2/admin/games/{id}/builds` as multipart, in process. */
export async function uploadBuild(
  shop: Shop,
  token: string | undefined,
  cheatId: number,
  parts: { file?: { bytes: Uint8Array<ArrayBuffer>; name: string }; version?: string; notes?: string; reason?: string },
) {
  const form = new FormData();
  if (parts.version !== undefined) form.set("version", parts.version);
  if (parts.notes !== undefined) form.set("notes", parts.notes);
  if (parts.reason !== undefined) form.set("reason", parts.reason);
  if (parts.file) form.set("file", new Blob([parts.file.bytes]), parts.file.name);
  const headers: Record<string, string> = { "accept-language": "en", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await shop.request(`/v2/admin/games/${cheatId}/builds`, { method: "POST", body: form, headers });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), headers: res.headers };
}
