// Receipts (docs/product/money.md#receipts): one for every completed payment (a top-up or a
// product paid through a provider) and every purchase or gift paid from the balance, mailed to the
// buyer in their language, and listed in the profile.
//
// Exactly one per payment: a receipt is written inside the database transaction that books the
// payment, keyed by its ledger row (unique), so the webhook and the return page racing to book it
// write one between them. The mail goes after the commit: the sender claims the receipt with a
// guarded UPDATE (one sender at a time), marks it mailed once the SMTP server (or the outbox)
// took it, and gives the claim back when sending failed; the job sends what is left (a crash, a
// mail server that was down), a few times at most.
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { receipts, users, type ReceiptKind } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { fromSnapshot, toSnapshot, type Catalog, type SoldProduct } from "../catalog/index.ts";
import type { Transaction } from "../ledger/index.ts";
import { paymentMethodName, receiptLines, type Mailer, type ReceiptSale, type ReceiptSeller } from "../mail/index.ts";
import type { Translate } from "../../i18n/translate.ts";
import type { Background } from "../shared/background.ts";
import type { Clock } from "../shared/clock.ts";

export type { ReceiptKind };

/** A receipt as its buyer sees it. */
export type Receipt = {
  id: number;
  /** How people write it: "000123". */
  number: string;
  kind: ReceiptKind;
  /** "balance", or the provider that took the money ("paypal", "demo", …). */
  method: string;
  /** What was paid, minor units of `currency`. */
  amount: number;
  currency: string;
  items: SoldProduct[];
  /** The provider's order id, when a provider took the money. */
  orderRef: string | null;
  createdAt: Date;
  mailed: boolean;
};

/** What a use case hands over when it books a payment. */
export type ReceiptInput = { userId: number; kind: ReceiptKind; method: string; transaction: Transaction; amount: number; orderRef?: string | null };

/** A claim older than this is a sender that died: the job takes the mail over. */
const CLAIM_SECONDS = 10 * 60;
/** Sending attempts before a receipt's mail is given up (it stays listed in the profile). */
export const RECEIPT_MAIL_ATTEMPTS = 5;

export function receiptNumber(id: number): string {
  return String(id).padStart(6, "0");
}

type Row = typeof receipts.$inferSelect;

function toReceipt(row: Row): Receipt {
  return {
    id: row.id,
    number: receiptNumber(row.id),
    kind: row.kind,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    items: row.items.map(fromSnapshot),
    orderRef: row.orderRef,
    createdAt: row.createdAt,
    mailed: row.mailedAt !== null,
  };
}

type Logger = { error(obj: object, msg?: string): void };

export type Receipts = ReturnType<typeof createReceipts>;

export function createReceipts(deps: { db: Db; clock: Clock; mailer: Mailer; catalog: Catalog; background: Background; seller: ReceiptSeller; logger: Logger }) {
  const { db, clock, mailer, catalog, background, seller, logger } = deps;

  /** The receipt's mail as its template takes it. */
  function sale(receipt: Receipt): ReceiptSale {
    return {
      kind: receipt.kind,
      method: receipt.method,
      items: receipt.items.map((item) => ({ game: catalog.gameName(item.cheatId), days: item.days, price: item.price })),
      total: receipt.amount,
      currency: receipt.currency,
    };
  }

  /** Claims the receipt's mail for this sender, or nothing when it went, is being sent, or was given up. */
  async function claim(id: number): Promise<Row | undefined> {
    const now = clock.now();
    const stale = new Date(now.getTime() - CLAIM_SECONDS * 1000);
    const [row] = await db
      .update(receipts)
      .set({ mailClaimedAt: now, mailAttempts: sql`${receipts.mailAttempts} + 1` })
      .where(and(eq(receipts.id, id), isNull(receipts.mailedAt), lt(receipts.mailAttempts, RECEIPT_MAIL_ATTEMPTS), or(isNull(receipts.mailClaimedAt), lt(receipts.mailClaimedAt, stale))))
      .returning();
    return row;
  }

  /** Sends the receipt's mail once; whether this call sent it. Throws when sending failed (the claim is given back). */
  async function deliver(id: number): Promise<boolean> {
    const row = await claim(id);
    if (!row) return false;
    const [buyer] = await db.select({ email: users.email, locale: users.locale, timeZone: users.timeZone }).from(users).where(eq(users.id, row.userId));
    if (!buyer) return false;
    const receipt = toReceipt(row);
    try {
      await mailer.send({
        to: buyer.email,
        locale: buyer.locale as Locale,
        template: "receipt",
        params: { number: receipt.number, orderRef: receipt.orderRef, date: receipt.createdAt, timeZone: buyer.timeZone ?? undefined, sale: sale(receipt), seller },
      });
    } catch (error) {
      await db.update(receipts).set({ mailClaimedAt: null }).where(eq(receipts.id, id));
      throw error;
    }
    await db.update(receipts).set({ mailedAt: clock.now() }).where(eq(receipts.id, id));
    return true;
  }

  return {
    /**
     * Writes the receipt of a payment inside the transaction that books it; its id, for `mailSoon`
     * once that transaction committed. A second receipt for the same ledger row is impossible.
     */
    async issue(tx: Tx, input: ReceiptInput): Promise<number> {
      const [row] = await tx
        .insert(receipts)
        .values({
          userId: input.userId,
          transactionId: input.transaction.id,
          kind: input.kind,
          method: input.method,
          amount: input.amount,
          currency: input.transaction.currency,
          items: input.transaction.products.map(toSnapshot),
          orderRef: input.orderRef ?? null,
          createdAt: input.transaction.createdAt,
        })
        .returning({ id: receipts.id });
      return row!.id;
    },

    /** Mails a committed receipt after the answer (background work a shutdown waits for). */
    mailSoon(id: number): void {
      void background.run(() => deliver(id));
    },

    deliver,

    /** The job's part: mails the receipts whose mail has not gone (a crash, a failed send); how many went. */
    async deliverPending(limit = 50): Promise<number> {
      const stale = new Date(clock.now().getTime() - CLAIM_SECONDS * 1000);
      const due = await db
        .select({ id: receipts.id })
        .from(receipts)
        .where(and(isNull(receipts.mailedAt), lt(receipts.mailAttempts, RECEIPT_MAIL_ATTEMPTS), or(isNull(receipts.mailClaimedAt), lt(receipts.mailClaimedAt, stale))))
        .orderBy(receipts.id)
        .limit(limit);
      let sent = 0;
      for (const { id } of due) {
        try {
          if (await deliver(id)) sent++;
        } catch (err) {
          logger.error({ err, receiptId: id }, "receipt mail failed; retried later");
        }
      }
      return sent;
    },

    /** A receipt's lines and method as the reader names them, the way its mail does ("Dota 2 · 30 days", "PayPal"). */
    describe(receipt: Receipt, t: Translate): { lines: { text: string; price: number }[]; method: string } {
      return { lines: receiptLines(t, sale(receipt)), method: paymentMethodName(t, receipt.method) };
    },

    /** The buyer's receipts, newest first. */
    async list(userId: number, limit = 50): Promise<Receipt[]> {
      const rows = await db.select().from(receipts).where(eq(receipts.userId, userId)).orderBy(desc(receipts.id)).limit(limit);
      return rows.map(toReceipt);
    },
  };
}
