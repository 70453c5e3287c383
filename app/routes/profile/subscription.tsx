// /{game}/profile/subscription: the game's subscription (docs/product/data.md#subscription-states: active, frozen, expired), freeze
// and unfreeze (intent forms: a plain POST without JavaScript, a fetcher with it), the licence key,
// its devices and the download (docs/product/delivery.md: regenerate and clear are plain posts of
// this action), and the game's products for the visitor's shopping area with links to the payment page.
import { useEffect } from "react";
import { redirect, useActionData, useFetcher, useLocation } from "react-router";
import { z } from "zod";
import { DomainError } from "../../../core/shared/errors.ts";
import type { Subscription as SubscriptionData } from "../../../core/subscriptions/index.ts";
import { Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { FormMessage, Notice, messagesOf } from "../../components/forms.tsx";
import { notificationForStatus, useNotifications } from "../../components/notifications.tsx";
import { SubscriptionBadge, formatDuration } from "../../components/commerce.tsx";
import { PlanGrid } from "../../components/plans.tsx";
import { DownloadCard, LicenceCard } from "../../components/delivery.tsx";
import { useLangTag, useT } from "../../lib/i18n.tsx";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import type { Route } from "./+types/subscription.ts";

const NOTICES = ["frozen", "unfrozen", "purchased", "regenerated", "cleared"] as const;

/** The page's forms: freeze or unfreeze the pass; regenerate the licence key, clear its devices. */
const PageForms = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("freeze") }),
  z.object({ intent: z.literal("unfreeze") }),
  z.object({ intent: z.literal("regenerate") }),
  z.object({ intent: z.literal("clear") }),
]);

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth, game } = requireProfile(context, url, params);
  const { t, services, shoppingArea } = context;
  const subscription = await services.subscriptions.forCheat(auth.user.id, game.id);
  const notice = url.searchParams.get("notice");
  const [licence, build] = await Promise.all([subscription ? services.licences.forCheat(auth.user.id, game.id) : null, services.builds.latest(game.id)]);
  return {
    game: { slug: game.slug, name: game.name },
    subscription,
    products: services.catalog.productsFor(game.id, shoppingArea).map(({ id, days, price, currency }) => ({ id, days, price, currency })),
    freeze: { maxDays: services.settings.FREEZE_MAX_DAYS, cooldownDays: services.settings.FREEZE_COOLDOWN_DAYS },
    notice: NOTICES.find((n) => n === notice) ?? null,
    licence,
    resetDays: services.settings.DEVICE_RESET_COOLDOWN_DAYS,
    download: {
      build,
      holdsPass: subscription !== null && subscription.state !== "expired",
      // Same origin as the page: the session cookie signs the request for a fresh signed link.
      href: `/v2/web/user/downloads/latest?cheat_id=${game.id}`,
      linkMinutes: Math.max(1, Math.round(services.settings.DOWNLOAD_LINK_SECONDS / 60)),
    },
    meta: { title: t("sub.title", { game: game.name }), description: t("sub.title", { game: game.name }) },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const { auth, game } = requireProfile(context, url, params);
  const submission = await readSubmission(context, request, PageForms);
  if (submission.status !== "success") return refuse(context, submission);
  const { subscriptions, licences, logger } = context.services;
  const back = (notice: string) => `${selfPath(url, false)}?notice=${notice}`;
  try {
    switch (submission.value.intent) {
      case "freeze":
        await subscriptions.freeze(auth.user.id, game.id);
        return redirect(back("frozen"));
      case "unfreeze":
        await subscriptions.unfreeze(auth.user.id, game.id);
        return redirect(back("unfrozen"));
      case "regenerate":
        await licences.regenerate(auth.user.id, game.id);
        return redirect(back("regenerated"));
      case "clear":
        await licences.clearDevices(auth.user.id, game.id);
        return redirect(back("cleared"));
    }
  } catch (error) {
    // Any failure is answered as the form's refusal, with its status, so that a fetcher shows the
    // notification (docs/product/routes.md#failed-calls-in-the-browser) instead of the error page.
    if (!(error instanceof DomainError)) logger.error({ err: error }, "freeze failed");
    return refuse(context, submission, error instanceof DomainError ? error : new DomainError("internal_error"));
  }
}

export default function Subscription({ loaderData }: Route.ComponentProps) {
  const formatDate = useFormatDate();
  const { game, subscription: sub, products, freeze, notice, licence, resetDays, download } = loaderData;
  const t = useT();
  const langTag = useLangTag();
  // A refused licence form (a plain post, not the freeze fetcher): its message above the card.
  const refused = useActionData<typeof action>();
  const licenceRefusal = refused && (refused.intent === "regenerate" || refused.intent === "clear") ? messagesOf(refused.result) : undefined;
  const state = sub?.state ?? "none";
  return (
    <section aria-labelledby="sub-title" className="commerce">
      <h1 id="sub-title">{t("sub.title", { game: game.name })}</h1>
      {notice && <Notice>{t(`sub.notice.${notice}`)}</Notice>}

      <Card as="section" className={`sub-card sub-${state}`}>
        <div className="sub-head">
          <span className="sub-icon" aria-hidden="true">
            <Icon name={state === "frozen" ? "snowflake" : "clock"} size={22} />
          </span>
          <div>
            <h2 className="h3">{game.name}</h2>
            <SubscriptionBadge state={state} t={t} />
          </div>
        </div>
        {sub ? (
          <dl className="facts">
            {sub.state === "frozen" ? (
              <>
                <div>
                  <dt>{t("sub.kept")}</dt>
                  <dd>{formatDuration(t, sub.remainingSeconds)}</dd>
                </div>
                {sub.frozenAt && (
                  <div>
                    <dt>{t("sub.frozenAt")}</dt>
                    <dd>
                      <time dateTime={sub.frozenAt.toISOString()}>{formatDate(sub.frozenAt)}</time>
                    </dd>
                  </div>
                )}
                {sub.freezeEndsAt && (
                  <div>
                    <dt>{t("sub.freezeEnds")}</dt>
                    <dd>
                      <time dateTime={sub.freezeEndsAt.toISOString()}>{formatDate(sub.freezeEndsAt)}</time>
                    </dd>
                  </div>
                )}
              </>
            ) : (
              <>
                <div>
                  <dt>{sub.state === "expired" ? t("sub.expiredAt") : t("sub.expiresAt")}</dt>
                  <dd>
                    <time dateTime={sub.expiresAt.toISOString()}>{formatDate(sub.expiresAt)}</time>
                  </dd>
                </div>
                {sub.state === "active" && (
                  <div>
                    <dt>{t("sub.remaining")}</dt>
                    <dd>{formatDuration(t, sub.remainingSeconds)}</dd>
                  </div>
                )}
              </>
            )}
          </dl>
        ) : (
          <p className="muted">{t("subscription.block.missing")}</p>
        )}
        <FreezeControls sub={sub} />
        <p className="muted small">{t("sub.freezeRules", { max: freeze.maxDays, cooldown: freeze.cooldownDays })}</p>
      </Card>

      <FormMessage errors={licenceRefusal} />
      {licence && <LicenceCard licence={licence} game={game.name} resetDays={resetDays} t={t} />}
      <DownloadCard {...download} langTag={langTag} t={t} />

      <section aria-labelledby="plans-title">
        <h2 id="plans-title" className="h3">
          {sub && sub.state !== "expired" ? t("sub.plans.extend") : t("sub.plans.buy")}
        </h2>
        {products.length === 0 ? <p className="muted">{t("game.empty")}</p> : <PlanGrid plans={products} game={game.slug} extend={state === "active" || state === "frozen"} />}
      </section>
    </section>
  );
}

function FreezeControls({ sub }: { sub: SubscriptionData | null }) {
  const formatDate = useFormatDate();
  const t = useT();
  const { pathname } = useLocation();
  const fetcher = useFetcher<typeof action>();
  const { notify } = useNotifications();
  const failure = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  useEffect(() => {
    if (!failure) return;
    const n = notificationForStatus(failure.status, t);
    if (n) notify(n);
  }, [failure, notify, t]);

  if (!sub || sub.state === "expired") return null;
  const busy = fetcher.state !== "idle";
  const intent = sub.state === "frozen" ? "unfreeze" : "freeze";
  return (
    <div className="freeze">
      <FormMessage errors={messagesOf(failure?.result)} />
      {sub.state === "frozen" || sub.canFreeze ? (
        <fetcher.Form method="post" action={pathname} className="form-row">
          <button type="submit" name="intent" value={intent} className={`btn ${intent === "freeze" ? "btn-secondary" : "btn-primary"}`} disabled={busy} aria-busy={busy || undefined}>
            <Icon name={intent === "freeze" ? "snowflake" : "bolt"} size={18} />
            {intent === "freeze" ? t("sub.freeze") : t("sub.unfreeze")}
          </button>
        </fetcher.Form>
      ) : (
        <p className="freeze-block" role="note">
          <Icon name="snowflake" size={16} />
          <span>
            {sub.freezeBlock === "cooldown" && sub.nextFreezeAt ? t("sub.cooldownUntil", { date: formatDate(sub.nextFreezeAt) }) : t(`subscription.block.${sub.freezeBlock ?? "missing"}`)}
          </span>
        </p>
      )}
    </div>
  );
}
