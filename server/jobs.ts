// Background work of the server process: freezes that reached FREEZE_MAX_DAYS end, subscriptions
// about to expire are announced (notification and mail), referral rewards whose hold is over are
// credited, compensation mails left unsent are sent, and what is no longer kept goes (ended
// sessions, spent codes, ended rate-limit windows, old idempotency keys, sent mail bodies). Several
// processes may run it at once: the claims use SKIP LOCKED, so each row is handled once, and the
// purges are idempotent.
import type { PurgeResult } from "../core/retention/index.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Services } from "./services.ts";

export async function runJobsOnce(services: Services): Promise<{ unfrozen: number; notified: number; released: number; receipted: number; compensationMails: number; purged: PurgeResult }> {
  const { subscriptions, notifications, mailer, catalog, retention, referrals } = services;
  const unfrozen = await subscriptions.endLongFreezes();
  for (const { userId, cheatId } of unfrozen) {
    await notifications.create(userId, "freeze_ended", { game: catalog.gameName(cheatId) });
  }
  const expiring = await subscriptions.claimExpiring();
  for (const item of expiring) {
    const game = catalog.gameName(item.cheatId);
    await notifications.create(item.userId, "subscription_expiring", { game, date: item.expiresAt.toISOString() });
    await mailer
      .send({ to: item.owner.email, locale: item.owner.locale as Locale, template: "subscription_expiring", params: { game, date: item.expiresAt, timeZone: item.owner.timeZone ?? undefined } })
      .catch((err: unknown) => services.logger.error({ err }, "expiry mail failed"));
  }
  // Referral rewards held for REFERRAL_HOLD_DAYS (docs/product/money.md#referrals).
  const released = await referrals.releaseDue();
  // Receipts whose mail did not go after their payment (a crash, a mail server down): docs/product/money.md#receipts.
  const receipted = await services.receipts.deliverPending();
  // Mails of compensations a stopped process did not send (docs/product/back-office.md#compensation).
  const compensationMails = await services.admin.compensations.sendMails();
  const purged = await retention.purge();
  // Passes held per game today, for the dashboard's history (docs/product/back-office.md#dashboard).
  await services.dashboard.snapshot();
  return { unfrozen: unfrozen.length, notified: expiring.length, released, receipted, compensationMails, purged };
}

/**
 * Runs the jobs every JOBS_INTERVAL_SECONDS (0: never) and the webhooks' worker every
 * WEBHOOK_POLL_MS; returns a stop function.
 */
export function startJobs(services: Services): () => Promise<void> {
  const stopWebhooks = startWebhookWorker(services);
  const seconds = services.settings.JOBS_INTERVAL_SECONDS;
  if (seconds === 0) return stopWebhooks;
  const { jobs } = services;
  Object.assign(jobs, { state: "running", startedAt: Date.now(), lastRunAt: undefined, lastRunFailed: undefined });
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = runJobsOnce(services).then(
      () => Object.assign(jobs, { lastRunAt: Date.now(), lastRunFailed: false }),
      (err: unknown) => {
        Object.assign(jobs, { lastRunAt: Date.now(), lastRunFailed: true });
        services.logger.error({ err }, "background jobs failed");
      },
    );
  }, seconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    jobs.state = "stopped";
    await Promise.all([running, stopWebhooks()]);
  };
}

/**
 * The outgoing webhooks' worker (docs/product/delivery.md#webhooks): every WEBHOOK_POLL_MS (0: never in
 * this process) it attempts the due deliveries, one run at a time; several processes may each run
 * one (their claims use SKIP LOCKED). Returns a stop function that waits for the attempts under way.
 */
export function startWebhookWorker(services: Services): () => Promise<void> {
  const ms = services.settings.WEBHOOK_POLL_MS;
  if (ms === 0) return async () => {};
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = services.webhooks
      .deliverDue()
      .catch((err: unknown) => services.logger.error({ err }, "webhook deliveries failed"))
      .finally(() => (running = undefined));
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Whether the jobs run as they should (docs/product/operations.md#health, /readyz): off by setting, or started and a run
 * ended within three intervals (the first run comes one interval after the start).
 */
export function jobsHealthy(services: Services, now = Date.now()): boolean {
  const { jobs } = services;
  if (jobs.state === "off") return true;
  if (jobs.state !== "running") return false;
  const since = jobs.lastRunAt ?? jobs.startedAt ?? 0;
  return now - since <= 3 * services.settings.JOBS_INTERVAL_SECONDS * 1000 && jobs.lastRunFailed !== true;
}
