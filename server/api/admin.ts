// The back office's JSON API, `/v2/admin/…` (docs/product/back-office.md#calls): the envelope, the
// origin check and `no-store` of every API call; everything behind the operator guard (guests 401,
// buyers 403, operators without 2FA 403); writes take a reason and are audited by the core; money
// moves (balance, refund, compensation) only inside a step-up window.
import { Hono, type Context } from "hono";
import { stream } from "hono/streaming";
import {
  AuditQuerySchema,
  auditFilterOf,
  BalanceSchema,
  CompensationSchema,
  EndSessionsSchema,
  GrantSchema,
  paymentFilterOf,
  PaymentsQuerySchema,
  ReasonOnlySchema,
  RefundSchema,
  ResendMailSchema,
  StepUpSchema,
  UserSearchSchema,
} from "../../core/admin/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { IdTextSchema } from "../../core/shared/schema.ts";
import type { HonoEnv } from "../context.ts";
import { jsonBody, query } from "../http/body.ts";
import { ok } from "../http/envelope.ts";
import { idempotent } from "../middleware/idempotency.ts";
import { actorOf, operatorGuard, permit, requireOperator, requireStepUp } from "../middleware/operator.ts";
import {
  auditEntryDto,
  compensationDto,
  customerDetailDto,
  customerDto,
  customerSubscriptionDto,
  customerSummaryDto,
  mailDto,
  operatorDto,
  paymentCsvRow,
  paymentDto,
  PAYMENTS_CSV_HEADER,
  refundDto,
} from "./wire/admin.ts";
import { transactionDto } from "./wire/commerce.ts";

/** A numeric id in the path; anything else names nothing (404). */
function idParam(c: Context<HonoEnv>, name = "id"): number {
  const parsed = IdTextSchema.safeParse(c.req.param(name));
  if (!parsed.success) throw new DomainError("not_found");
  return parsed.data;
}

export function adminRoutes() {
  const api = new Hono<HonoEnv>();
  const services = (c: Context<HonoEnv>) => c.get("services");

  api.use("/v2/admin/*", operatorGuard());

  // ---- the operator ----

  api.get("/v2/admin/me", (c) => ok(c, { operator: operatorDto(requireOperator(c)) }));

  api.post("/v2/admin/step-up", async (c) => {
    const { code } = await jsonBody(c, StepUpSchema);
    const until = await services(c).admin.stepUp(requireOperator(c), code, { ip: c.get("info").clientIp });
    return ok(c, { step_up_until: until.toISOString() });
  });

  // ---- customers ----

  api.get("/v2/admin/users", async (c) => {
    const { q } = query(c, UserSearchSchema);
    return ok(c, { users: (await services(c).admin.customers.search(q)).map(customerSummaryDto) });
  });

  api.get("/v2/admin/users/:id", async (c) => {
    const detail = await services(c).admin.customers.detail(idParam(c), c.get("info").t);
    return ok(c, customerDetailDto(detail, requireOperator(c).role));
  });

  api.post("/v2/admin/users/:id/grant", permit("grant_days"), async (c) => {
    const input = await jsonBody(c, GrantSchema);
    const passes = await services(c).admin.customers.grant(actorOf(c), idParam(c), { cheatId: input.cheat_id, days: input.days, reason: input.reason });
    return ok(c, { subscriptions: passes.map((s) => customerSubscriptionDto(s, requireOperator(c).role)) });
  });

  api.post("/v2/admin/users/:id/balance", permit("adjust_balance"), async (c) => {
    const input = await jsonBody(c, BalanceSchema);
    await requireStepUp(c, input.code);
    const result = await services(c).admin.customers.adjustBalance(actorOf(c), idParam(c), { amount: input.amount, reason: input.reason });
    return ok(c, { balance: result.balance, transaction: transactionDto(result.transaction) });
  });

  api.post("/v2/admin/users/:id/suspend", permit("suspend"), async (c) => {
    const { reason } = await jsonBody(c, ReasonOnlySchema);
    return ok(c, { user: customerDto(await services(c).admin.customers.suspend(actorOf(c), idParam(c), reason)) });
  });

  api.post("/v2/admin/users/:id/unsuspend", permit("suspend"), async (c) => {
    const { reason } = await jsonBody(c, ReasonOnlySchema);
    return ok(c, { user: customerDto(await services(c).admin.customers.unsuspend(actorOf(c), idParam(c), reason)) });
  });

  api.post("/v2/admin/users/:id/reset-2fa", permit("reset_two_fa"), async (c) => {
    const { reason } = await jsonBody(c, ReasonOnlySchema);
    return ok(c, { user: customerDto(await services(c).admin.customers.resetTwoFa(actorOf(c), idParam(c), reason)) });
  });

  api.post("/v2/admin/users/:id/sessions/end", permit("end_sessions"), async (c) => {
    const input = await jsonBody(c, EndSessionsSchema);
    const ended = await services(c).admin.customers.endSessions(actorOf(c), idParam(c), { sessionId: input.session_id, reason: input.reason });
    return ok(c, { ended });
  });

  api.post("/v2/admin/users/:id/mails/resend", permit("resend_mail"), async (c) => {
    const input = await jsonBody(c, ResendMailSchema);
    const mail = await services(c).admin.customers.resendMail(actorOf(c), idParam(c), { mailId: input.mail_id, reason: input.reason });
    return ok(c, { mail: mailDto(mail) });
  });

  // ---- payments ----

  api.get("/v2/admin/payments", async (c) => {
    const q = query(c, PaymentsQuerySchema);
    const filter = paymentFilterOf(q);
    const { admin } = services(c);
    if (q.format === "csv") {
      c.header("Content-Type", "text/csv; charset=utf-8");
      c.header("Content-Disposition", 'attachment; filename="payments.csv"');
      c.header("Cache-Control", "no-store");
      return stream(c, async (out) => {
        await out.write(`${PAYMENTS_CSV_HEADER.join(",")}\r\n`);
        for await (const page of admin.payments.all(filter)) await out.write(page.map(paymentCsvRow).join(""));
      });
    }
    const page = await admin.payments.list({ ...filter, before: q.cursor, limit: q.limit });
    return ok(c, { payments: page.payments.map(paymentDto), next_cursor: page.nextCursor === null ? null : String(page.nextCursor) });
  });

  api.get("/v2/admin/payments/:id", async (c) => ok(c, { payment: paymentDto(await services(c).admin.payments.byId(idParam(c))) }));

  api.post("/v2/admin/payments/:id/refund", permit("refund"), idempotent({ omit: ["code"], successesOnly: true }), async (c) => {
    const input = await jsonBody(c, RefundSchema);
    await requireStepUp(c, input.code);
    const result = await services(c).admin.payments.refund(actorOf(c), idParam(c), { amount: input.amount, reason: input.reason, requestKey: c.req.header("idempotency-key") });
    return ok(c, refundDto(result));
  });

  // ---- compensation ----

  // The replay of a key answers its first result before any step-up check (docs/product/back-office.md#compensation).
  api.post("/v2/admin/compensation", permit("compensate"), idempotent({ omit: ["code"], required: true, successesOnly: true }), async (c) => {
    const input = await jsonBody(c, CompensationSchema);
    await requireStepUp(c, input.code);
    const { admin, background } = services(c);
    const result = await admin.compensations.compensate(actorOf(c), {
      cheatId: input.cheat_id,
      days: input.days,
      reason: input.reason,
      idempotencyKey: c.req.header("idempotency-key")!,
    });
    // The mails follow the answer; the jobs send whatever a stopped process left.
    void background.run(() => admin.compensations.sendMails(result.id));
    return ok(c, compensationDto(result));
  });

  // ---- the audit log ----

  api.get("/v2/admin/audit", async (c) => {
    const page = await services(c).audit.list(auditFilterOf(query(c, AuditQuerySchema)));
    return ok(c, { entries: page.entries.map(auditEntryDto), next_cursor: page.nextCursor === null ? null : String(page.nextCursor) });
  });

  return api;
}
