// Accounts API (docs/product/api.md#account-calls): register, sign-in with 2FA, logout, password reset,
// password and e-mail change, 2FA, e-mail preferences, SSO tickets, notifications. Each call parses
// its body with the module's schema, calls one use case and writes the domain answer in the wire
// format (./wire/).
import { Hono, type Context } from "hono";
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  ConfirmEnableSchema,
  ConfirmTwoFaSchema,
  DeleteAccountSchema,
  DisableTwoFaSchema,
  EmailPreferencesSchema,
  LoginSchema,
  RegisterSchema,
  ResetRequestSchema,
  SetPasswordResetSchema,
  ValidateResetCodeSchema,
  VerifyEmailSchema,
  type RequestMeta,
} from "../../core/accounts/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import type { HonoEnv } from "../context.ts";
import { jsonBody } from "../http/body.ts";
import { ok } from "../http/envelope.ts";
import { PRE2FA_COOKIE, cookieValue } from "../http/cookies.ts";
import { bearerToken, clearSessionCookie, requireAuth, setSessionCookie } from "../middleware/session.ts";
import { emailPreferencesDto, ssoTicketDto, twoFaEnabledDto, twoFaSetupDto, userDto } from "./wire/accounts.ts";
import { notificationDto } from "./wire/notifications.ts";
import { MarkReadSchema } from "../../core/notifications/notifications.schema.ts";
import { dataExportDto } from "./wire/privacy.ts";

export function requestMeta(c: Context<HonoEnv>): RequestMeta {
  const info = c.get("info");
  return { ip: info.clientIp, userAgent: c.req.header("user-agent"), locale: info.locale };
}

export function accountRoutes() {
  const api = new Hono<HonoEnv>();
  const accounts = (c: Context<HonoEnv>) => c.get("services").accounts;

  api.post("/v2/web/register", async (c) => {
    const input = await jsonBody(c, RegisterSchema);
    const { token } = await accounts(c).register(input, { ...requestMeta(c), referrerCode: cookieValue(c.req.header("cookie"), "referrer") });
    setSessionCookie(c, token);
    return ok(c, { token });
  });

  api.post("/v2/web/login", async (c) => {
    const input = await jsonBody(c, LoginSchema);
    const result = await accounts(c).login(input, requestMeta(c));
    if (result.twoFa) return ok(c, { twoFa: true, token: result.token });
    setSessionCookie(c, result.token);
    return ok(c, { token: result.token });
  });

  api.post("/v2/web/confirmTwoFa", async (c) => {
    const { code } = await jsonBody(c, ConfirmTwoFaSchema);
    const token = bearerToken(c) ?? cookieValue(c.req.header("cookie"), PRE2FA_COOKIE);
    const found = token ? await c.get("services").sessions.authenticate(token) : null;
    if (!found || found.session.kind !== "pre2fa") throw new DomainError("unauthenticated");
    const result = await accounts(c).confirmTwoFa(found.session.id, found.user.id, code, requestMeta(c));
    setSessionCookie(c, result.token);
    return ok(c, { token: result.token });
  });

  api.post("/v2/web/logout", async (c) => {
    const auth = requireAuth(c);
    await accounts(c).logout(auth.session.id);
    clearSessionCookie(c);
    return ok(c);
  });

  api.get("/v2/web/user/me", (c) => ok(c, { user: userDto(accounts(c).user(requireAuth(c).user)) }));

  api.post("/auth/reset", async (c) => {
    await accounts(c).requestPasswordReset(await jsonBody(c, ResetRequestSchema), requestMeta(c));
    return ok(c);
  });

  api.post("/auth/validateResetCode", async (c) => {
    await accounts(c).validateResetCode(await jsonBody(c, ValidateResetCodeSchema), requestMeta(c));
    return ok(c);
  });

  api.post("/auth/setPasswordReset", async (c) => {
    await accounts(c).setPasswordReset(await jsonBody(c, SetPasswordResetSchema), requestMeta(c));
    return ok(c);
  });

  api.post("/v2/web/user/changePassword", async (c) => {
    const auth = requireAuth(c);
    const input = await jsonBody(c, ChangePasswordSchema);
    const { token } = await accounts(c).changePassword(auth.user.id, input, requestMeta(c));
    setSessionCookie(c, token);
    return ok(c, { token });
  });

  api.post("/v2/web/user/changeEmail", async (c) => {
    const auth = requireAuth(c);
    const { user } = await accounts(c).changeEmail(auth.user.id, await jsonBody(c, ChangeEmailSchema));
    return ok(c, { user: userDto(user), message: c.get("info").t("account.email.pending", { email: user.pendingEmail ?? "" }) });
  });

  api.post("/v2/web/user/2fa/enable", async (c) => ok(c, twoFaSetupDto(await accounts(c).enableTwoFa(requireAuth(c).user.id))));

  api.post("/v2/web/user/2fa/confirmEnable", async (c) => {
    const auth = requireAuth(c);
    const { code } = await jsonBody(c, ConfirmEnableSchema);
    return ok(c, twoFaEnabledDto(await accounts(c).confirmEnableTwoFa(auth.user.id, code)));
  });

  api.post("/v2/web/user/2fa/disable", async (c) => {
    const auth = requireAuth(c);
    await accounts(c).disableTwoFa(auth.user.id, await jsonBody(c, DisableTwoFaSchema), requestMeta(c));
    return ok(c);
  });

  api.post("/v2/web/user/email-preferences", async (c) => {
    const auth = requireAuth(c);
    const prefs = await accounts(c).setEmailPreferences(auth.user.id, await jsonBody(c, EmailPreferencesSchema));
    return ok(c, { email_preferences: emailPreferencesDto(prefs) });
  });

  api.post("/v2/web/sso/ticket", async (c) => {
    const auth = requireAuth(c);
    return ok(c, ssoTicketDto(await accounts(c).createSsoTicket(auth.user.id, c.get("info").locale)));
  });

  // docs/product/accounts.md#verified-addresses
  api.post("/v2/web/user/verify-email/resend", async (c) => {
    await accounts(c).resendVerification(requireAuth(c).user.id);
    return ok(c);
  });

  api.post("/v2/web/verify-email", async (c) => {
    const { token } = await jsonBody(c, VerifyEmailSchema);
    return ok(c, { user: userDto((await accounts(c).verifyEmail(token)).user) });
  });

  // docs/product/accounts.md#deleting-an-account: the password, then every session ends (this one too).
  api.post("/v2/web/user/delete", async (c) => {
    const auth = requireAuth(c);
    const { password } = await jsonBody(c, DeleteAccountSchema);
    await accounts(c).deleteAccount(auth.user.id, { password }, requestMeta(c));
    clearSessionCookie(c);
    return ok(c);
  });

  // docs/product/accounts.md#data-export: everything the shop holds about the user, as a file.
  api.get("/v2/web/user/export", async (c) => {
    const auth = requireAuth(c);
    const data = await c.get("services").privacy.exportData(auth.user.id, c.get("info").t);
    c.header("Content-Disposition", `attachment; filename="nova-data-${auth.user.id}.json"`);
    return ok(c, { export: dataExportDto(data) });
  });

  api.get("/v2/web/user/notification", async (c) => {
    const auth = requireAuth(c);
    const info = c.get("info");
    const list = await c.get("services").notifications.list(auth.user.id, info.t);
    return ok(c, { notifications: list.map(notificationDto) });
  });

  // docs/product/api.md#account-calls: mark some (`ids`) or `all` read; answers the list as the GET does.
  api.post("/v2/web/user/notification/read", async (c) => {
    const auth = requireAuth(c);
    const which = await jsonBody(c, MarkReadSchema);
    const { notifications } = c.get("services");
    await notifications.markRead(auth.user.id, which);
    const list = await notifications.list(auth.user.id, c.get("info").t);
    return ok(c, { notifications: list.map(notificationDto) });
  });

  return api;
}
