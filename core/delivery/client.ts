// The game client's API (docs/product/delivery.md#client-api): `activate` binds a device to a licence
// key (at most DEVICE_LIMIT devices per licence) and hands the device an opaque token; `heartbeat`
// answers that token with a fresh entitlement. An entitlement is a JSON payload signed with Ed25519
// that says whether the pass lets its owner play right now (isEntitled: active, the game neither
// `detected` nor `maintenance`, the account not suspended) and until when at most the client may
// believe it (`valid_until`, 15 minutes, never past the expiry): a freeze, a refund, a suspension or
// a game status change reaches the client at its next heartbeat.
//
// No answer tells whether a key exists: an unknown key, a regenerated one and one of the wrong shape
// are all `invalid_key`; an unknown or dead token is `invalid_token`.
import { and, count, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { cheats, licenceDevices, subscriptions, users, type GameStatus } from "../../db/schema/index.ts";
import type { RateLimiter, Rule } from "../ratelimit/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { isEntitled, type Subscriptions, type SubscriptionState } from "../subscriptions/index.ts";
import type { Signer } from "./signing.ts";

/** An entitlement never claims more than this (docs/product/delivery.md#signed-entitlements). */
export const ENTITLEMENT_TTL_MS = 15 * 60_000;
/** `last_seen_at` is written at most this often per device, so a heartbeat is one read. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** What the client verifies: the payload is a JSON string, signed byte for byte. */
export type Entitlement = { payload: string; signature: string; kid: string };

export type EntitlementPayload = {
  /** The licence's public id: the first 16 hex digits of the SHA-256 of its key (not the key). */
  licence: string;
  cheat_id: number;
  /** Hex SHA-256 of the device's hwid. */
  hwid: string;
  entitled: boolean;
  state: SubscriptionState;
  /** Null while frozen (the time is kept, not running). */
  expires_at: string | null;
  game_status: GameStatus;
  issued_at: string;
  valid_until: string;
};

/** A licence key as typed: case and surrounding blanks do not matter. */
export const KEY_PATTERN = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
export const normaliseKey = (key: string) => key.trim().toUpperCase();
/** The licence's public id in entitlements. */
export const licenceId = (key: string) => sha256(key).slice(0, 16);
/** How a device id is stored and named in entitlements. */
export const hwidHash = (hwid: string) => sha256(hwid);

/** Activations per key, heartbeats per token (the per-address limit is the HTTP layer's, on every client call). */
export type ClientLimits = { activateKey: Rule; heartbeatToken: Rule };

export type ClientApi = ReturnType<typeof createClientApi>;

export function createClientApi(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  subscriptions: Subscriptions;
  /** The signing key, loaded once (signing.ts). */
  signer: () => Promise<Signer>;
  deviceLimit: number;
  limits: ClientLimits;
}) {
  const { db, clock, limiter, signer, deviceLimit, limits } = deps;

  type PassRow = typeof subscriptions.$inferSelect;
  type Facts = { pass: PassRow; suspendedAt: Date | null; gameStatus: GameStatus; hwidHash: string };

  async function entitlement({ pass, suspendedAt, gameStatus, hwidHash: hwid }: Facts, now = clock.now()): Promise<Entitlement> {
    const view = deps.subscriptions.view(pass, now);
    const entitled = isEntitled(view, { suspendedAt }, gameStatus);
    // Never believed past the expiry of a running pass.
    const until = Math.min(now.getTime() + ENTITLEMENT_TTL_MS, entitled ? view.expiresAt.getTime() : Infinity);
    const payload: EntitlementPayload = {
      licence: licenceId(pass.licenceKey),
      cheat_id: pass.cheatId,
      hwid,
      entitled,
      state: view.state,
      expires_at: view.state === "frozen" ? null : view.expiresAt.toISOString(),
      game_status: gameStatus,
      issued_at: now.toISOString(),
      valid_until: new Date(until).toISOString(),
    };
    const text = JSON.stringify(payload);
    const key = await signer();
    return { payload: text, signature: key.sign(Buffer.from(text, "utf8")), kid: key.kid };
  }

  return {
    entitlement,

    async publicKey(): Promise<{ key: string; kid: string; alg: "Ed25519" }> {
      const key = await signer();
      return { key: key.publicKey, kid: key.kid, alg: "Ed25519" };
    },

    /**
     * Binds the device to the licence (or renews the token of a device bound before) and answers a
     * token for it with the entitlement. The licence's row is locked for the count, so parallel
     * activations from many devices bind at most DEVICE_LIMIT of them.
     */
    async activate(input: { key: string; hwid: string; clientVersion?: string }): Promise<{ token: string; entitlement: Entitlement }> {
      const key = normaliseKey(input.key);
      await limiter.consume(`client:key:${sha256(key)}`, limits.activateKey);
      if (!KEY_PATTERN.test(key)) throw new DomainError("invalid_key");
      const device = hwidHash(input.hwid);
      const token = randomToken(32);
      const facts = await db.transaction(async (tx) => {
        const [found] = await tx
          .select({ pass: subscriptions, suspendedAt: users.suspendedAt, gameStatus: cheats.status })
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .innerJoin(cheats, eq(cheats.id, subscriptions.cheatId))
          .where(eq(subscriptions.licenceKey, key))
          .for("update", { of: subscriptions });
        if (!found) throw new DomainError("invalid_key");
        const now = clock.now();
        const version = input.clientVersion || null;
        const renewed = await tx
          .update(licenceDevices)
          .set({ tokenHash: sha256(token), clientVersion: version, lastSeenAt: now })
          .where(and(eq(licenceDevices.subscriptionId, found.pass.id), eq(licenceDevices.hwidHash, device)))
          .returning({ id: licenceDevices.id });
        if (renewed.length === 0) {
          const [bound] = await tx.select({ n: count() }).from(licenceDevices).where(eq(licenceDevices.subscriptionId, found.pass.id));
          if ((bound?.n ?? 0) >= deviceLimit) throw new DomainError("device_limit", "errors.device_limit", { params: { limit: deviceLimit } });
          await tx.insert(licenceDevices).values({
            subscriptionId: found.pass.id,
            hwidHash: device,
            tokenHash: sha256(token),
            clientVersion: version,
            firstSeenAt: now,
            lastSeenAt: now,
          });
        }
        return { ...found, hwidHash: device };
      });
      return { token, entitlement: await entitlement(facts) };
    },

    /** A fresh entitlement for a bound device's token. */
    async heartbeat(token: string | undefined): Promise<Entitlement> {
      if (!token) throw new DomainError("invalid_token");
      const tokenHash = sha256(token);
      await limiter.consume(`client:token:${tokenHash}`, limits.heartbeatToken);
      const [found] = await db
        .select({
          pass: subscriptions,
          suspendedAt: users.suspendedAt,
          gameStatus: cheats.status,
          deviceId: licenceDevices.id,
          hwidHash: licenceDevices.hwidHash,
          lastSeenAt: licenceDevices.lastSeenAt,
        })
        .from(licenceDevices)
        .innerJoin(subscriptions, eq(subscriptions.id, licenceDevices.subscriptionId))
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .innerJoin(cheats, eq(cheats.id, subscriptions.cheatId))
        .where(eq(licenceDevices.tokenHash, tokenHash));
      if (!found) throw new DomainError("invalid_token");
      const now = clock.now();
      if (now.getTime() - found.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
        await db
          .update(licenceDevices)
          .set({ lastSeenAt: now })
          .where(and(eq(licenceDevices.id, found.deviceId), lt(licenceDevices.lastSeenAt, now)));
      }
      return entitlement(found, now);
    },
  };
}
