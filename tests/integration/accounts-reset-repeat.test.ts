// A user may be mailed a reset code equal to one they had before (six digits repeat): the new code
// must still be stored and mailed. The random source is pinned here to make the repeat certain.
import { afterAll, describe, expect, it, vi } from "vitest";
import type * as Tokens from "../../core/shared/tokens.ts";

// The test files of a worker share their modules (vitest.config.ts: no isolation), so the pinned
// random source is set up on modules of this file's own, and taken away again after it.
vi.resetModules();
vi.doMock("../../core/shared/tokens.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof Tokens>()),
  sixDigitCode: () => "424242",
}));
const { codeIn, mailsTo, registerUser, useShop } = await import("../kit/shop.ts");
afterAll(() => {
  vi.doUnmock("../../core/shared/tokens.ts");
  vi.resetModules();
});

const shop = useShop({ smtp: true });

describe("a repeated reset code", () => {
  it("is stored and mailed again, and works once", async () => {
    const user = await registerUser(shop);
    for (let round = 1; round <= 3; round++) {
      expect((await shop.call("POST", "/auth/reset", { json: { email: user.email } })).body).toEqual({ status: true });
      await shop.services.background.drain();
      const mails = mailsTo(shop.smtp, user.email).filter((m) => m.text?.includes("424242"));
      expect(mails, `round ${round}`).toHaveLength(round);
      expect(codeIn(mails.at(-1)!)).toBe("424242");
      const validate = await shop.call("POST", "/auth/validateResetCode", { json: { email: user.email, resetCode: "424242" } });
      expect(validate.status, `round ${round}`).toBe(200);
    }
    const reset = await shop.call("POST", "/auth/setPasswordReset", { json: { email: user.email, resetCode: "424242", password: "Harbor-Violet-77" } });
    expect(reset.status).toBe(200);
    // Used: a fourth request gives the same digits a new life, but the used one is gone.
    expect((await shop.call("POST", "/auth/setPasswordReset", { json: { email: user.email, resetCode: "424242", password: "Other-Violet-78" } })).status).toBe(400);
    expect((await shop.call("POST", "/auth/reset", { json: { email: user.email } })).status).toBe(200);
    await shop.services.background.drain();
    expect((await shop.call("POST", "/auth/validateResetCode", { json: { email: user.email, resetCode: "424242" } })).status).toBe(200);
  });
});
