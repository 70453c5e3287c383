// The pass a checkout promises: the same rule as grantDays (docs/product/data.md#subscriptions).
import { describe, expect, test } from "vitest";
import { afterPurchase } from "./index.ts";

const now = new Date("2026-11-23T12:00:00Z");
const DAY = 86_400_000;

describe("afterPurchase", () => {
  test("a live pass is extended from its end", () => {
    const expiresAt = new Date(now.getTime() + 3 * DAY);
    expect(afterPurchase({ state: "active", expiresAt, frozenLength: 0 }, 30, now)).toEqual({ state: "active", expiresAt: new Date(now.getTime() + 33 * DAY) });
  });

  test("an expired or missing pass starts now", () => {
    const expiresAt = new Date(now.getTime() - 10 * DAY);
    expect(afterPurchase({ state: "expired", expiresAt, frozenLength: 0 }, 7, now)).toEqual({ state: "active", expiresAt: new Date(now.getTime() + 7 * DAY) });
    expect(afterPurchase(null, 1, now)).toEqual({ state: "active", expiresAt: new Date(now.getTime() + DAY) });
  });

  test("a frozen pass keeps the days in its freeze", () => {
    expect(afterPurchase({ state: "frozen", expiresAt: now, frozenLength: 3600 }, 7, now)).toEqual({ state: "frozen", keptSeconds: 3600 + 7 * 86_400 });
  });
});
