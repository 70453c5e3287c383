// Notifications in the wire format of GET /v2/web/user/notification
// (docs/product/api.md#account-calls): the domain type of core/notifications, times as ISO 8601.
import type { Notification } from "../../../core/notifications/index.ts";

export type NotificationDto = { id: number; type: string; title: string; content: string; created_at: string; read: boolean };

export function notificationDto(notification: Notification): NotificationDto {
  return {
    id: notification.id,
    type: notification.type,
    title: notification.title,
    content: notification.content,
    created_at: notification.createdAt.toISOString(),
    read: notification.read,
  };
}
