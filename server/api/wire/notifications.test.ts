// The notification's domain → wire mapping (GET /v2/web/user/notification, docs/product/api.md#account-calls).
import { describe, expect, it } from "vitest";
import type { Notification } from "../../../core/notifications/index.ts";
import { notificationDto } from "./notifications.ts";

describe("notificationDto", () => {
  it("writes created_at in ISO 8601 UTC, in the order user/notification always had", () => {
    const notification: Notification = {
      id: 3,
      type: "password_changed",
      title: "Password changed",
      content: "The password of your account was changed.",
      createdAt: new Date("2026-01-02T03:04:05.000Z"),
      read: false,
    };
    expect(JSON.stringify(notificationDto(notification))).toBe(
      '{"id":3,"type":"password_changed","title":"Password changed","content":"The password of your account was changed.","created_at":"2026-01-02T03:04:05.000Z","read":false}',
    );
  });
});
