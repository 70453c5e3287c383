// The back office's core (docs/product/back-office.md): customers, payments and refunds, bulk
// compensation, and the step-up that money needs. Who may do what is core/operators; the audit log
// core/audit; the HTTP calls server/api/admin.ts behind the operator guard.
import type { Db } from "../../db/client.ts";
import type { Accounts } from "../accounts/index.ts";
import type { Audit } from "../audit/index.ts";
import type { Catalog } from "../catalog/index.ts";
import type { Ledger } from "../ledger/index.ts";
import type { Mailer } from "../mail/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Operator, Operators } from "../operators/index.ts";
import type { Payments } from "../payments/index.ts";
import type { Sessions } from "../sessions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import type { Subscriptions } from "../subscriptions/index.ts";
import type { Suspensions } from "../suspensions/index.ts";
import { createCompensations } from "./compensation.ts";
import { createCustomers } from "./customers.ts";
import { createAdminPayments } from "./payments.ts";

export * from "./admin.schema.ts";
export type { Actor, CustomerDetail, CustomerMail, CustomerProfile, CustomerSession, CustomerSubscription, CustomerSummary, CustomerReferrals } from "./customers.ts";
export type { AdminPayment, PaymentFilter, RefundResult } from "./payments.ts";
export type { CompensationResult } from "./compensation.ts";

type Logger = { error(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export type Admin = ReturnType<typeof createAdmin>;

/** What the back office is made of. */
export type AdminDeps = {
  db: Db;
  clock: Clock;
  audit: Audit;
  operators: Operators;
  accounts: Pick<Accounts, "verifySecondFactor">;
  catalog: Catalog;
  ledger: Ledger;
  subscriptions: Subscriptions;
  suspensions: Suspensions;
  sessions: Sessions;
  notifications: Notifications;
  mailer: Mailer;
  payments: Payments;
  /** Every provider that is on: refunds go through the one that took the payment. */
  paymentProviders?: Payments[];
  currency: string;
  logger: Logger;
  compensationBatch: number;
};

export function createAdmin(deps: AdminDeps) {
  const { operators, accounts } = deps;

  /**
   * Opens the operator's step-up window with a code from their authenticator app (or a recovery
   * code), counted like a sign-in's code step (docs/product/back-office.md#step-up). Until when.
   */
  async function stepUp(operator: Operator, code: string, meta: { ip: string }): Promise<Date> {
    await accounts.verifySecondFactor(operator.id, code, meta);
    return operators.openStepUp(operator);
  }

  return {
    customers: createCustomers(deps),
    payments: createAdminPayments(deps),
    compensations: createCompensations({ ...deps, batchSize: deps.compensationBatch }),

    stepUp,

    /**
     * Money moves only inside a step-up window (docs/product/back-office.md#step-up): an open one
     * passes; otherwise `code` opens it (a wrong one is 400 invalid_code), and no code is 403
     * step_up_required. The JSON API's requireStepUp and the back-office pages both come here.
     */
    async requireStepUp(operator: Operator, code: string | undefined, meta: { ip: string }): Promise<void> {
      if (operators.steppedUp(operator)) return;
      if (code === undefined) throw new DomainError("step_up_required");
      await stepUp(operator, code, meta);
    },
  };
}
