import { describe, expect, it, vi } from "vitest";
import { DomainError } from "./errors.ts";

describe("DomainError", () => {
  it("is recognised by instanceof, also when made by another copy of the module", async () => {
    vi.resetModules();
    const copy = await import("./errors.ts");
    expect(copy.DomainError).not.toBe(DomainError);
    const error = new copy.DomainError("rate_limited", undefined, { retryAfterSeconds: 5 });
    expect(error instanceof DomainError).toBe(true);
    expect(new Error("x") instanceof DomainError).toBe(false);
    expect(error.status).toBe(429);
    expect(error.messageKey).toBe("errors.rate_limited");
  });
});
