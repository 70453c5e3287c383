// /give/subscription (purchase layout, signed-in only): give days of a game from the balance —
// straight to a user (e-mail or username) or as a code to share — and redeem a code (docs/product/money.md#gifts).
// A gift by e-mail says "sent to that address" and no more: whether the address has an account
// (days added) or not (a code by mail) is never shown.
import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useLoaderData, type MetaArgs } from "react-router";
import { DomainError } from "../../../core/shared/errors.ts";
import { Card, Field } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { FormAlert, Notice, SubmitButton, fieldError } from "../../components/forms.tsx";
import { productName } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireUser, storedGameProfile } from "../../lib/guards.server.ts";
import { formFailure, parseForm, readForm, type FormResult } from "../../lib/forms.server.ts";
import { GiftFormSchema, RECIPIENT_MAX, RedeemSchema } from "../../../core/gifts/gifts.schema.ts";
import { IdTextSchema } from "../../../core/shared/schema.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

export function loader({ context, request }: LoaderArgs) {
  const auth = requireUser(context, request);
  const { t, services, shoppingArea } = context;
  const user = services.accounts.user(auth.user);
  const url = new URL(request.url);
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
    recipientMax: RECIPIENT_MAX,
    topUpHref: `${storedGameProfile(context, request)}/balance`,
    meta: { title: t("gift.title"), description: t("gift.lead") },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

type GiftResult =
  | (FormResult & { insufficient?: boolean })
  | { ok: true; intent: "give"; code: string | null; recipient: string | null; byEmail: boolean; game: string; gameSlug: string; days: number; balance: number }
  | { ok: true; intent: "redeem"; game: string; gameSlug: string; days: number };

export async function action({ context, request }: ActionArgs) {
  const auth = requireUser(context, request);
  const fields = await readForm(request);
  const { services, shoppingArea } = context;
  const gameOf = (cheatId: number) => services.catalog.cheatById(cheatId);
  try {
    if (fields.intent === "give") {
      const input = parseForm(GiftFormSchema, fields);
      const { gift, balance } = await services.gifts.give(auth.user.id, { productId: input.product, recipient: input.recipient, area: shoppingArea });
      const game = gameOf(gift.cheatId);
      return {
        ok: true as const,
        intent: "give" as const,
        code: gift.delivered ? null : gift.code,
        recipient: gift.recipient,
        byEmail: gift.redeemed === null,
        game: game?.name ?? "",
        gameSlug: game?.slug ?? "",
        days: gift.days,
        balance,
      };
    }
    if (fields.intent === "redeem") {
      const { code } = parseForm(RedeemSchema, fields);
      const { gift } = await services.gifts.redeem(auth.user.id, code);
      const game = gameOf(gift.cheatId);
      return { ok: true as const, intent: "redeem" as const, game: game?.name ?? "", gameSlug: game?.slug ?? "", days: gift.days };
    }
    return { ok: false as const };
  } catch (error) {
    const answer = formFailure(context, error, fields, fields.intent === "redeem" ? "redeem" : "give");
    const insufficient = error instanceof DomainError && error.code === "insufficient_balance";
    return data({ ...answer.data, insufficient }, answer.init ?? undefined);
  }
}

export default function GiveSubscription() {
  const { games, selected, balance: loadedBalance, currency, recipientMax, topUpHref } = useLoaderData<typeof loader>();
  const result = useActionData<GiftResult>();
  const failed = result && !result.ok ? result : undefined;
  const given = result?.ok && result.intent === "give" ? result : undefined;
  const redeemed = result?.ok && result.intent === "redeem" ? result : undefined;
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const balance = given?.balance ?? loadedBalance;
  const giveForm = useRef<HTMLFormElement>(null);
  const redeemForm = useRef<HTMLFormElement>(null);
  // After a success the form starts afresh, so that a second click does not give again by mistake.
  useEffect(() => {
    if (given) giveForm.current?.reset();
    if (redeemed) redeemForm.current?.reset();
  }, [given, redeemed]);
  const chosen = failed?.intent === "give" ? (parseInt(failed.values?.product ?? "", 10) || selected) : selected;
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
                <code className="gift-code" aria-label={t("gift.code")}>{given.code}</code>
              </>
            ) : (
              <Notice>
                {t(given.byEmail ? "gift.give.sentToEmail" : "gift.give.sent", { recipient: given.recipient ?? "", days: given.days, game: given.game })}
              </Notice>
            )}
          </div>
        )}
        <FormAlert result={failed} intent="give" />
        {failed?.intent === "give" && failed.insufficient && (
          <p className="topup-hint">
            <Link to={topUpHref}>{t("payment.topUp")}</Link>
          </p>
        )}
        <Form method="post" className="form" ref={giveForm}>
          <div className={`field${fieldError(failed, "product", "give") ? " field-invalid" : ""}`}>
            <label htmlFor="gift-product">{t("gift.give.product")}</label>
            <select id="gift-product" name="product" required defaultValue={chosen ?? undefined}>
              {games.map((g) => (
                <optgroup key={g.slug} label={g.name}>
                  {g.products.map((p) => (
                    <option key={p.id} value={p.id}>
                      {productName(t, g.name, p.days)} — {formatMoney(p.price, p.currency, locale)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            {fieldError(failed, "product", "give") && <p className="field-error" role="alert">{fieldError(failed, "product", "give")}</p>}
          </div>
          <Field
            id="gift-recipient"
            name="recipient"
            label={t("gift.give.recipient")}
            hint={t("gift.give.recipientHint")}
            autoComplete="off"
            maxLength={recipientMax}
            defaultValue={failed?.intent === "give" ? failed.values?.recipient : undefined}
            error={fieldError(failed, "recipient", "give")}
          />
          <SubmitButton intent="give">{t("gift.give.submit")}</SubmitButton>
        </Form>
      </Card>

      <Card as="section" className="checkout-card">
        <h2 className="h3" id="redeem">{t("gift.redeem.title")}</h2>
        <p className="muted small">{t("gift.redeem.lead")}</p>
        {redeemed && (
          <Notice>
            {t("gift.redeem.done", { days: redeemed.days, game: redeemed.game })}{" "}
            <Link to={href(`/${redeemed.gameSlug}/profile/subscription`)}>{t("gift.redeem.open")}</Link>
          </Notice>
        )}
        <FormAlert result={failed} intent="redeem" />
        <Form method="post" className="form" ref={redeemForm}>
          <Field
            id="gift-code"
            name="code"
            label={t("gift.code")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            required
            error={fieldError(failed, "code", "redeem")}
          />
          <SubmitButton intent="redeem" variant="secondary">{t("gift.redeem.submit")}</SubmitButton>
        </Form>
      </Card>
    </section>
  );
}
