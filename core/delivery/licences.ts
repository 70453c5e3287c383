// The buyer's side of a licence (docs/product/delivery.md#licences): one key per pass (user × game),
// made by the database with the pass; regenerating it ends the old key and every device bound to it
// at once; the bound devices, which the buyer may clear once per DEVICE_RESET_COOLDOWN_DAYS.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { licenceDevices, subscriptions } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { formatDate } from "../../i18n/format.ts";

const DAY_MS = 86_400_000;

export type Device = { id: number; clientVersion: string | null; firstSeenAt: Date; lastSeenAt: Date };

export type Licence = {
  cheatId: number;
  key: string;
  devices: Device[];
  deviceLimit: number;
  /** When the devices may be cleared again; null when they may be now. */
  resetAvailableAt: Date | null;
};

export type Licences = ReturnType<typeof createLicences>;

export function createLicences(deps: { db: Db; clock: Clock; deviceLimit: number; resetCooldownDays: number }) {
  const { db, clock, deviceLimit, resetCooldownDays } = deps;

  type PassRow = typeof subscriptions.$inferSelect;

  async function pass(tx: Db | Tx, userId: number, cheatId: number, lock = false): Promise<PassRow> {
    const query = tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.cheatId, cheatId)));
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw new DomainError("not_found", "errors.licence_not_found");
    return row;
  }

  function resetAvailableAt(row: PassRow, now: Date): Date | null {
    if (!row.devicesResetAt) return null;
    const at = new Date(row.devicesResetAt.getTime() + resetCooldownDays * DAY_MS);
    return at.getTime() > now.getTime() ? at : null;
  }

  async function view(tx: Db | Tx, row: PassRow): Promise<Licence> {
    const devices = await tx
      .select({ id: licenceDevices.id, clientVersion: licenceDevices.clientVersion, firstSeenAt: licenceDevices.firstSeenAt, lastSeenAt: licenceDevices.lastSeenAt })
      .from(licenceDevices)
      .where(eq(licenceDevices.subscriptionId, row.id))
      .orderBy(asc(licenceDevices.id));
    return { cheatId: row.cheatId, key: row.licenceKey, devices, deviceLimit, resetAvailableAt: resetAvailableAt(row, clock.now()) };
  }

  return {
    /** The licence of the user's pass of a game; 404 when they never had one. */
    async forCheat(userId: number, cheatId: number): Promise<Licence> {
      return view(db, await pass(db, userId, cheatId));
    },

    /** A new key; the old one and every device bound to it stop at once (their tokens go with the rows). */
    async regenerate(userId: number, cheatId: number): Promise<Licence> {
      return db.transaction(async (tx) => {
        const row = await pass(tx, userId, cheatId, true);
        const [renewed] = await tx
          .update(subscriptions)
          .set({ licenceKey: sql`default`, updatedAt: clock.now() })
          .where(eq(subscriptions.id, row.id))
          .returning();
        await tx.delete(licenceDevices).where(eq(licenceDevices.subscriptionId, row.id));
        return view(tx, renewed!);
      });
    },

    /** Unbinds every device of the licence, once per DEVICE_RESET_COOLDOWN_DAYS (409 before that). */
    async clearDevices(userId: number, cheatId: number): Promise<Licence> {
      return db.transaction(async (tx) => {
        const row = await pass(tx, userId, cheatId, true);
        const now = clock.now();
        const next = resetAvailableAt(row, now);
        if (next) throw new DomainError("device_reset_cooldown", "errors.device_reset_cooldown", { params: { date: formatDate(next) } });
        const removed = await tx.delete(licenceDevices).where(eq(licenceDevices.subscriptionId, row.id)).returning({ id: licenceDevices.id });
        // Clearing nothing does not start the wait.
        if (removed.length === 0) return view(tx, row);
        const [cleared] = await tx.update(subscriptions).set({ devicesResetAt: now }).where(eq(subscriptions.id, row.id)).returning();
        return view(tx, cleared!);
      });
    },
  };
}
