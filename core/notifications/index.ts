// In-app notifications: stored as a type and parameters, rendered in the reader's language.
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";
import { isMessageKey } from "../../i18n/keys.ts";
import type { MessageKey, Translate } from "../../i18n/translate.ts";
import type { MarkRead } from "./notifications.schema.ts";

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
  | "payment_completed"
  | "days_granted"
  | "refund_claim";

/** A notification as its reader sees it: title and content in the reader's language. */
export type Notification = {
  id: number;
  type: NotificationType;
  title: string;
  content: string;
  createdAt: Date;
  read: boolean;
};

/** The types there are: each has its title and content messages, `notification.<type>.*` (tsc checks). */
const TYPES: Record<NotificationType, true> = {
  password_changed: true,
  email_changed: true,
  two_fa_enabled: true,
  two_fa_disabled: true,
  gift_received: true,
  gift_sent: true,
  referral_reward: true,
  referral_reversed: true,
  subscription_expiring: true,
  freeze_ended: true,
  payment_completed: true,
  days_granted: true,
  refund_claim: true,
};

function isNotificationType(type: string): type is NotificationType {
  return Object.hasOwn(TYPES, type);
}

/** A value of a notification, or a message key translated when the notification is read. */
export type NotificationParam = string | number | { t: MessageKey };

export type Notifications = ReturnType<typeof createNotifications>;

export type { MarkRead };

export function createNotifications({ db }: { db: Db }) {
  return {
    /** A parameter given as `{ t: key }` is a message, translated in the reader's language. */
    async create(userId: number, type: NotificationType, params: Record<string, NotificationParam> = {}, tx: Db | Tx = db) {
      await tx.insert(notifications).values({ userId, type, data: params });
    },
    async list(userId: number, t: Translate, limit = 50): Promise<Notification[]> {
      const rows = await db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.id)).limit(limit);
      // A row of a type this code does not know (written by a newer version) cannot be shown. A
      // parameter stored as { t: key } is a message of its own, translated for the reader.
      return rows.flatMap((n) => {
        if (!isNotificationType(n.type)) return [];
        const params = Object.fromEntries(
          // Stored data is read back untyped: a key the catalogue no longer has shows as nothing.
          Object.entries((n.data ?? {}) as Record<string, NotificationParam>).map(([k, v]) => [k, typeof v === "object" && v !== null ? (isMessageKey(v.t) ? t(v.t) : "") : v]),
        );
        return [
          {
            id: n.id,
            type: n.type,
            title: t(`notification.${n.type}.title`, params),
            content: t(`notification.${n.type}.content`, params),
            createdAt: n.createdAt,
            read: n.read,
          },
        ];
      });
    },
    /** The header's inbox: the latest few, and how many are unread. */
    async inbox(userId: number, t: Translate, limit = 8): Promise<{ unread: number; latest: Notification[] }> {
      const [latest, unread] = await Promise.all([this.list(userId, t, limit), this.unreadCount(userId)]);
      return { unread, latest };
    },

    /** How many of the user's notifications are unread (the bell's count). */
    async unreadCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
      return row?.n ?? 0;
    },

    /**
     * Marks notifications read: some by id, or all of them (docs/product/api.md#account-calls). Ids
     * that are not the user's (or not there) are ignored, never an error that would tell they exist.
     */
    async markRead(userId: number, which: MarkRead): Promise<void> {
      const mine = and(eq(notifications.userId, userId), eq(notifications.read, false));
      await db
        .update(notifications)
        .set({ read: true })
        .where("all" in which ? mine : and(mine, inArray(notifications.id, which.ids)));
    },
  };
}
