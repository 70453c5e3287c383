// /give/subscription (purchase layout, signed-in only): give days of a game from the balance —
// straight to a user (e-mail or username) or as a code to share — and redeem a code (docs/product/money.md#gifts).
// A gift by e-mail says "sent to that address" and no more: whether the address has an account
// (days added) or not (a code by mail) is never shown. The page runs no script
// (docs/decisions/0009-forms-on-the-server.md): its two forms post as documents.
import { Link } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, SelectField, replyTo, usePageForm } from "../../components/page-form.tsx";
import { productName } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { useRootData } from "../../root.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireUser, storedGameProfile } from "../../lib/guards.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { GiftFormSchema, RECIPIENT_MAX, RedeemSchema } from "../../../core/gifts/gifts.schema.ts";
import { IdTextSchema } from "../../../core/shared/schema.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/give-subscription.ts";

export const handle: RouteHandle = { hydrate: false };

const GiftForms = z.discriminatedUnion("intent", [GiftFormSchema.extend({ intent: z.literal("give") }), RedeemSchema.extend({ intent: z.literal("redeem") })]);

export function loader({ context, request, url }: Route.LoaderArgs) {
  const auth = requireUser(context, url);
  const { t, services, shoppingArea } = context;
  const user = services.accounts.user(auth.user);
  const games = services.catalog.cheats().map((c) => ({
    slug: c.slug,
    name: c.name,
    products: services.catalog.productsFor(c.id, shoppingArea).map(({ id, days, price, currency }) => ({ id, days, price, currency })),
  }));
  const wantedGame = url.searchParams.get("game");
  const wantedProduct = IdTextSchema.safeParse(url.searchParams.get("product")).data;
  const all = games.flatMap((g) => g.products);
  const selected =
    all.find((p) => p.id === wantedProduct)?.id ??
    games.find((g) => g.slug === wantedGame)?.products.find((p) => p.days === 7)?.id ??
    games[0]?.products.find((p) => p.days === 7)?.id ??
    all[0]?.id;
  return {
    games,
    selected: selected ?? null,
    balance: user.balance,
    currency: user.currency,
    // The forms' HTML constraints, from the gift schemas' own limits (the browser gets no Zod).
    constraints: {
      give: { product: { required: true }, recipient: { maxLength: RECIPIENT_MAX } },
      redeem: { code: { required: true, maxLength: RedeemSchema.shape.code.maxLength ?? undefined } },
    },
    topUpHref: `${storedGameProfile(context, request)}/balance`,
    // Gifts need a proven address (docs/product/accounts.md#verified-addresses): the page says so before the form refuses.
    unverified: user.emailVerified ? null : { email: user.email, settingsHref: `${storedGameProfile(context, request)}/settings` },
    meta: { title: t("gift.title"), description: t("gift.lead") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  const auth = requireUser(context, url);
  const submission = await readSubmission(context, request, GiftForms);
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const { services, shoppingArea } = context;
  const gameOf = (cheatId: number) => services.catalog.cheatById(cheatId);
  // After a success the form starts afresh, so that a second click does not give again by mistake.
  const result = submission.reply({ resetForm: true });
  try {
    if (form.intent === "give") {
      const { gift, balance } = await services.gifts.give(auth.user.id, { productId: form.product, recipient: form.recipient, area: shoppingArea });
      const game = gameOf(gift.cheatId);
      return {
        ok: true as const,
        intent: form.intent,
        result,
        code: gift.delivered ? null : gift.code,
        recipient: gift.recipient,
        byEmail: gift.redeemed === null,
        game: game?.name ?? "",
        gameSlug: game?.slug ?? "",
        days: gift.days,
        balance,
      };
    }
    const { gift } = await services.gifts.redeem(auth.user.id, form.code);
    const game = gameOf(gift.cheatId);
    return { ok: true as const, intent: form.intent, result, game: game?.name ?? "", gameSlug: game?.slug ?? "", days: gift.days };
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function GiveSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { games, selected, balance: loadedBalance, currency, constraints, topUpHref, unverified } = loaderData;
  const given = actionData?.ok && actionData.intent === "give" ? actionData : undefined;
  const redeemed = actionData?.ok && actionData.intent === "redeem" ? actionData : undefined;
  const insufficient = actionData?.ok === false && actionData.intent === "give" && actionData.code === "insufficient_balance";
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const publicUrl = useRootData()?.publicUrl ?? "";
  const balance = given?.balance ?? loadedBalance;
  return (
    <section className="checkout gift-page" aria-labelledby="gift-title">
      <h1 id="gift-title" className="with-icon">
        <Icon name="gift" size={28} /> {t("gift.title")}
      </h1>
      <p className="muted">{t("gift.lead")}</p>

      <Card as="section" className="checkout-card">
        <div className="section-head">
          <h2 className="h3">{t("gift.give.title")}</h2>
          <p className="muted small balance-inline">
            {t("balance.current")}: <strong>{formatMoney(balance, currency, locale)}</strong>
          </p>
        </div>
        {given && (
          <div className="gift-result">
            {given.code ? (
              <>
                <Notice>{t("gift.give.codeReady", { days: given.days, game: given.game })}</Notice>
                <p className="muted small">{t("gift.give.codeHint")}</p>
                {/* A tap selects the whole code (no script on this page); or it goes out by mail. */}
                <p className="gift-code">
                  <span className="visually-hidden">{t("gift.code")}: </span>
                  <code>{given.code}</code>
                </p>
                <a
                  className="btn btn-secondary btn-small gift-share"
                  href={`mailto:?subject=${encodeURIComponent(t("gift.shareSubject", { game: given.game }))}&body=${encodeURIComponent(t("gift.shareBody", { code: given.code, url: `${publicUrl}${href("/give/subscription")}` }))}`}
                >
                  {t("gift.shareMail")}
                </a>
              </>
            ) : (
              <Notice>{t(given.byEmail ? "gift.give.sentToEmail" : "gift.give.sent", { recipient: given.recipient ?? "", days: given.days, game: given.game })}</Notice>
            )}
          </div>
        )}
        {unverified && (
          <p className="alert alert-info" role="note">
            <span>
              {t("gift.give.unverified", { email: unverified.email })} <a href={unverified.settingsHref}>{t("gift.give.unverifiedLink")}</a>
            </span>
          </p>
        )}
        <GiveForm games={games} selected={selected} constraint={constraints.give} insufficient={insufficient} topUpHref={topUpHref} lastResult={replyTo(actionData, "give")} />
      </Card>

      <Card as="section" className="checkout-card">
        <h2 className="h3" id="redeem">
          {t("gift.redeem.title")}
        </h2>
        <p className="muted small">{t("gift.redeem.lead")}</p>
        {redeemed && (
          <Notice>
            {t("gift.redeem.done", { days: redeemed.days, game: redeemed.game })} <Link to={href(`/${redeemed.gameSlug}/profile/subscription`)}>{t("gift.redeem.open")}</Link>
          </Notice>
        )}
        <RedeemForm constraint={constraints.redeem} lastResult={replyTo(actionData, "redeem")} />
      </Card>
    </section>
  );
}

type Games = Route.ComponentProps["loaderData"]["games"];
type Reply = { lastResult: SubmissionResult<string[]> | undefined };

function GiveForm({
  games,
  selected,
  constraint,
  insufficient,
  topUpHref,
  lastResult,
}: Reply & { games: Games; selected: number | null; constraint: Route.ComponentProps["loaderData"]["constraints"]["give"]; insufficient: boolean; topUpHref: string }) {
  const t = useT();
  const locale = useLocale();
  const [form, fields] = usePageForm("give", constraint, { lastResult, defaultValue: { product: selected === null ? undefined : String(selected) } });
  return (
    <PageForm form={form}>
      {insufficient && (
        <p className="topup-hint">
          <Link to={topUpHref}>{t("payment.topUp")}</Link>
        </p>
      )}
      <SelectField field={fields.product} label={t("gift.give.product")}>
        {games.map((g) => (
          <optgroup key={g.slug} label={g.name}>
            {g.products.map((p) => (
              <option key={p.id} value={p.id}>
                {productName(t, g.name, p.days)} — {formatMoney(p.price, p.currency, locale)}
              </option>
            ))}
          </optgroup>
        ))}
      </SelectField>
      <Field field={fields.recipient} label={t("gift.give.recipient")} hint={t("gift.give.recipientHint")} autoComplete="off" />
      <SubmitButton intent="give">{t("gift.give.submit")}</SubmitButton>
    </PageForm>
  );
}

function RedeemForm({ constraint, lastResult }: Reply & { constraint: Route.ComponentProps["loaderData"]["constraints"]["redeem"] }) {
  const t = useT();
  const [form, fields] = usePageForm("redeem", constraint, { lastResult });
  return (
    <PageForm form={form}>
      <Field field={fields.code} label={t("gift.code")} autoComplete="off" autoCapitalize="characters" spellCheck={false} />
      <SubmitButton intent="redeem" variant="secondary">
        {t("gift.redeem.submit")}
      </SubmitButton>
    </PageForm>
  );
}
