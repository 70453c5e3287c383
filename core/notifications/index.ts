// In-app notifications: stored as a type and parameters, rendered in the reader's language.
import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";

export type NotificationType =
  | "password_changed"
  | "email_changed"
  | "two_fa_enabled"
  | "two_fa_disabled"
  | "gift_received"
  | "gift_sent"
  | "referral_reward"
  | "referral_reversed"
  | "subscription_expiring"
  | "freeze_ended"
  | "payment_completed";

export type NotificationView = {
  id: number;
  type: string;
  title: string;
  content: string;
  created_at: string;
  read: boolean;
};

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** A value of a notification, or a message key translated when the notification is read. */
export type NotificationParam = string | number | { t: string };

export type Notifications = ReturnType<typeof createNotifications>;

export function createNotifications({ db }: { db: Db }) {
  return {
    /** A parameter given as `{ t: key }` is a message, translated in the reader's language. */
    async create(userId: number, type: NotificationType, params: Record<string, NotificationParam> = {}, tx: Db | Tx = db) {
      await tx.insert(notifications).values({ userId, type, data: params });
    },
    async list(userId: number, t: Translate, limit = 50): Promise<NotificationView[]> {
      const rows = await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.id))
        .limit(limit);
      return rows.map((n) => {
        const params = Object.fromEntries(
          Object.entries((n.data ?? {}) as Record<string, NotificationParam>).map(([k, v]) => [k, typeof v === "object" && v !== null ? t(v.t) : v]),
        );
        return {
          id: n.id,
          type: n.type,
          title: t(`notification.${n.type}.title`, params),
          content: t(`notification.${n.type}.content`, params),
          created_at: n.createdAt.toISOString(),
          read: n.read,
        };
      });
    },
    async markRead(userId: number, id: number) {
      await db.update(notifications).set({ read: true }).where(and(eq(notifications.userId, userId), eq(notifications.id, id)));
    },
  };
}
