// In-app notifications: stored as a type and parameters, rendered in the reader's language.
import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";
import type { Translate } from "../../i18n/translate.ts";

export type NotificationType =
  | "password_changed"
  | "email_changed"
  | "two_fa_enabled"
  | "two_fa_disabled"
  | "gift_received"
  | "gift_sent"
  | "referral_reward"
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

/** The types there are: each has its title and content messages, `notification.<type>.*` (tsc checks). */
const TYPES: Record<NotificationType, true> = {
  password_changed: true,
  email_changed: true,
  two_fa_enabled: true,
  two_fa_disabled: true,
  gift_received: true,
  gift_sent: true,
  referral_reward: true,
  subscription_expiring: true,
  freeze_ended: true,
  payment_completed: true,
};

function isNotificationType(type: string): type is NotificationType {
  return Object.hasOwn(TYPES, type);
}

export type Notifications = ReturnType<typeof createNotifications>;

export function createNotifications({ db }: { db: Db }) {
  return {
    async create(userId: number, type: NotificationType, params: Record<string, string | number> = {}, tx: Db | Tx = db) {
      await tx.insert(notifications).values({ userId, type, data: params });
    },
    async list(userId: number, t: Translate, limit = 50): Promise<NotificationView[]> {
      const rows = await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.id))
        .limit(limit);
      // A row of a type this code does not know (written by a newer version) cannot be shown.
      return rows.flatMap((n) =>
        isNotificationType(n.type)
          ? [
              {
                id: n.id,
                type: n.type,
                title: t(`notification.${n.type}.title`, n.data),
                content: t(`notification.${n.type}.content`, n.data),
                created_at: n.createdAt.toISOString(),
                read: n.read,
              },
            ]
          : [],
      );
    },
    async markRead(userId: number, id: number) {
      await db.update(notifications).set({ read: true }).where(and(eq(notifications.userId, userId), eq(notifications.id, id)));
    },
  };
}
