import { describe, expect, it, vi } from "vitest";
import { DomainError, STATUS_OF, isDomainError } from "./errors.ts";

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

  it("has invalid_link for a dead link or ticket of the pages: 400, with its own message", () => {
    const error = new DomainError("invalid_link");
    expect(STATUS_OF.invalid_link).toBe(400);
    expect(error.status).toBe(400);
    expect(error.messageKey).toBe("errors.invalid_link");
  });
});

describe("isDomainError", () => {
  it("tells a DomainError of the codes named from any other error", () => {
    const link = new DomainError("invalid_link");
    expect(isDomainError(link, "invalid_link")).toBe(true);
    expect(isDomainError(link, "email_taken", "invalid_link")).toBe(true);
    expect(isDomainError(link, "invalid_code")).toBe(false);
    expect(isDomainError(new DomainError("invalid_code", "errors.invalid_link"), "invalid_link")).toBe(false);
    expect(isDomainError(new Error("invalid_link"), "invalid_link")).toBe(false);
    expect(isDomainError(undefined, "invalid_link")).toBe(false);
  });
});
