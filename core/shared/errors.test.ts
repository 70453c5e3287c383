import { describe, expect, it, vi } from "vitest";
import { DomainError } from "./errors.ts";

describe("DomainError", () => {
  it("is a plain class: instanceof needs no brand, since the process holds one copy of the core (docs/decisions/0008-one-module-graph.md)", async () => {
    expect(Object.hasOwn(DomainError, Symbol.hasInstance)).toBe(false);
    const error = new DomainError("rate_limited", undefined, { retryAfterSeconds: 5 });
    expect(error instanceof DomainError).toBe(true);
    expect(error instanceof Error).toBe(true);
    expect(new Error("x") instanceof DomainError).toBe(false);
    expect(error.status).toBe(429);
    expect(error.messageKey).toBe("errors.rate_limited");
    // A second copy of the module would be a second class: nothing pretends otherwise.
    vi.resetModules();
    const copy = await import("./errors.ts");
    expect(copy.DomainError).not.toBe(DomainError);
    expect(new copy.DomainError("not_found") instanceof DomainError).toBe(false);
  });
});
