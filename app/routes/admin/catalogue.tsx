// /admin/catalogue (docs/product/back-office.md#pages): games (status, visibility, order, texts per
// language with every content field), products per shopping area, areas and their countries,
// route rules, and the legal and support texts per language. Every form is a Conform form posting
// its `intent` to this page, whose action checks it with the JSON API's schemas and runs the same
// core call (app/lib/admin-catalogue.server.ts, docs/decisions/0009-forms-on-the-server.md); each
// takes a reason. Which game's texts and which site page are open is in the query (?game=&lang=,
// ?page=&plang=). The page posts as documents and ships no script. Support sees everything; the
// writes answer it 403.
import type { Constraint, DefaultValue } from "@conform-to/dom";
import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useActionData } from "react-router";
import type { GameStatus } from "../../../core/catalog/index.ts";
import { SITE_PAGES } from "../../../core/content/slugs.ts";
import { minorDigits } from "../../../core/shared/money.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { LOCALES } from "../../../i18n/locales.ts";
import { GameSelect, ReasonField } from "../../components/admin.tsx";
import { FormMessage, messagesOf, Notice, SubmitButton } from "../../components/forms.tsx";
import { CheckboxField, Field, PageForm, replyTo, SelectField, TextareaField, usePageForm } from "../../components/page-form.tsx";
import { Card } from "../../components/ui/primitives.tsx";
import { catalogueAction, catalogueData, type CatalogueIntent } from "../../lib/admin-catalogue.server.ts";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/catalogue.ts";

export const handle: RouteHandle = { hydrate: false };

/** The game statuses (db/schema's GAME_STATUSES), written here so that the page's script carries no schema module. */
const GAME_STATUSES = ["working", "updating", "detected", "maintenance"] as const satisfies readonly GameStatus[];

export const loader = (args: Route.LoaderArgs) => catalogueData(args);

export const action = (args: Route.ActionArgs) => catalogueAction(args);

export const meta = ({ data }: Route.MetaArgs) => [...pageMeta(data), { name: "robots", content: "noindex" }];

type Data = Route.ComponentProps["loaderData"];

const REASON = { reason: { required: true, maxLength: 500 } };

/**
 * The state of one form of the page: Conform's, with the last refusal when this form posted it —
 * on a form repeated per row (`row`), only the row whose `id` was posted. Every form has a reason.
 */
function useCatalogueForm<C extends Record<string, Constraint>>(
  intent: CatalogueIntent,
  constraint: C,
  options: { row?: string | number; defaultValue?: DefaultValue<Partial<Record<keyof C, string>>> } = {},
) {
  const reply = replyTo(useActionData<typeof action>(), intent);
  const mine = options.row === undefined || reply?.initialValue?.id === String(options.row);
  return usePageForm<C & typeof REASON>(
    options.row === undefined ? intent : `${intent}-${options.row}`,
    { ...constraint, ...REASON },
    { lastResult: mine ? reply : undefined, defaultValue: options.defaultValue },
  );
}

/** "Saved" under a section's title when one of its forms was done. */
function Saved({ intents }: { intents: CatalogueIntent[] }) {
  const answer = useActionData<typeof action>();
  if (!answer || !("ok" in answer) || !answer.ok || !intents.includes(answer.intent)) return null;
  return <Notice>{answer.message}</Notice>;
}

/** A card of the page: its title, "Saved" when one of `intents` (its forms) was done, its content. */
function Section({ title, intents, children }: { title: string; intents: CatalogueIntent[]; children: ReactNode }) {
  return (
    <Card as="section">
      <h2 className="h3">{title}</h2>
      <Saved intents={intents} />
      {children}
    </Card>
  );
}

/** A form of the page: its message, the row it changes (`id`, hidden), its fields, the reason and the button. */
function CatalogueForm({
  form,
  intent,
  id,
  reason,
  submit,
  variant = "primary",
  children,
}: {
  form: FormMetadata<Record<string, unknown>>;
  intent: CatalogueIntent;
  id?: string | number;
  reason: FieldMetadata<string | undefined>;
  submit: string;
  variant?: "primary" | "secondary";
  children?: ReactNode;
}) {
  return (
    <PageForm form={form} className="admin-form">
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      {children}
      <ReasonField field={reason} />
      <SubmitButton intent={intent} variant={variant} block={false}>
        {submit}
      </SubmitButton>
    </PageForm>
  );
}

function StatusSelect({ field }: { field: FieldMetadata<string | undefined> }) {
  const t = useT();
  return (
    <SelectField field={field} label={t("adminCatalogue.status")}>
      {GAME_STATUSES.map((s) => (
        <option key={s} value={s}>
          {t(`game.status.${s}`)}
        </option>
      ))}
    </SelectField>
  );
}

const localeOptions = LOCALES.map((l) => <option key={l}>{l}</option>);

/**
 * Opens what a form below edits (a game's texts, a site page) in a language: a GET of the page, so
 * it works without a script.
 */
function Opener({ name, label, value, options, langName, lang }: { name: string; label: string; value: string | number; options: ReactNode; langName: string; lang: string }) {
  const t = useT();
  return (
    <form method="get" className="admin-form">
      <label>
        {label}
        <select name={name} defaultValue={value}>
          {options}
        </select>
      </label>
      <label>
        {t("adminCatalogue.language")}
        <select name={langName} defaultValue={lang}>
          {localeOptions}
        </select>
      </label>
      <button type="submit" className="btn btn-secondary">
        {t("adminCatalogue.open")}
      </button>
    </form>
  );
}

/**
 * A refusal for a row the page does not show (posted from an older page: a removed rule, another
 * game's texts): its message at the top, since no form on the page is its own.
 */
function rowlessRefusal(d: Data, answer: Route.ComponentProps["actionData"]): string[] | undefined {
  if (!answer || !("result" in answer)) return undefined;
  const rows: Partial<Record<string, (string | number)[]>> = {
    "game-update": d.games.map((g) => g.id),
    "game-texts": [d.editing.gameId],
    "product-update": d.products.map((p) => p.id),
    "area-update": d.areas.map((a) => a.id),
    "rule-delete": d.rules.map((r) => r.id),
  };
  const shown = rows[answer.intent];
  return shown && !shown.map(String).includes(String(answer.result.initialValue?.id)) ? messagesOf(answer.result) : undefined;
}

export default function Catalogue({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">{t("adminCatalogue.title")}</h1>
      {!d.owner && <p className="muted">{t("adminCatalogue.readOnly")}</p>}
      <FormMessage errors={rowlessRefusal(d, actionData)} />
      <Games d={d} />
      <div className="admin-grid">
        <NewGame />
        <GameTexts d={d} />
      </div>
      <Products d={d} />
      <div className="admin-grid">
        <Areas d={d} />
        <Rules d={d} />
      </div>
      <SitePage d={d} />
    </section>
  );
}

/** A table whose rows each carry a form; it scrolls sideways on a phone. */
function RowTable({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            {head.map((cell) => (
              <th key={cell}>{cell}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function Games({ d }: { d: Data }) {
  const t = useT();
  return (
    <Section title={t("adminCatalogue.games")} intents={["game-update"]}>
      <RowTable head={[t("adminCatalogue.game"), t("adminCatalogue.languages"), t("adminCatalogue.change")]}>
        {d.games.map((g) => (
          <tr key={g.id}>
            <td>
              <strong>{g.name}</strong> <code>/{g.slug}</code> #{g.id}
            </td>
            <td>{g.locales.join(" ")}</td>
            <td>
              <GameRowForm game={g} />
            </td>
          </tr>
        ))}
      </RowTable>
    </Section>
  );
}

function GameRowForm({ game }: { game: Data["games"][number] }) {
  const t = useT();
  const [form, fields] = useCatalogueForm(
    "game-update",
    { status: { required: true }, visible: {}, order: {} },
    { row: game.id, defaultValue: { status: game.status, visible: game.visible ? "on" : undefined, order: String(game.order) } },
  );
  return (
    <CatalogueForm form={form} intent="game-update" id={game.id} reason={fields.reason} submit={t("adminCatalogue.save")}>
      <StatusSelect field={fields.status} />
      <CheckboxField field={fields.visible} label={t("adminCatalogue.visible")} />
      <Field field={fields.order} type="number" label={t("adminCatalogue.order")} className="narrow" />
    </CatalogueForm>
  );
}

function NewGame() {
  const t = useT();
  const locale = useLocale();
  const [form, fields] = useCatalogueForm(
    "game-create",
    { slug: { required: true, pattern: "[a-z0-9][a-z0-9\\-]{1,31}" }, name: { required: true }, locale: { required: true }, status: {}, order: {}, visible: {}, tagline: {}, description: {} },
    { defaultValue: { locale, status: "working", order: "0", visible: "on" } },
  );
  return (
    <Section title={t("adminCatalogue.newGame")} intents={["game-create"]}>
      <CatalogueForm form={form} intent="game-create" reason={fields.reason} submit={t("adminCatalogue.add")}>
        <Field field={fields.slug} label={t("adminCatalogue.slug")} />
        <Field field={fields.name} label={t("adminCatalogue.name")} />
        <SelectField field={fields.locale} label={t("adminCatalogue.language")}>
          {localeOptions}
        </SelectField>
        <StatusSelect field={fields.status} />
        <Field field={fields.order} type="number" label={t("adminCatalogue.order")} className="narrow" />
        <CheckboxField field={fields.visible} label={t("adminCatalogue.visible")} />
        <Field field={fields.tagline} label={t("adminCatalogue.tagline")} frame="wide" />
        <TextareaField field={fields.description} label={t("adminCatalogue.description")} frame="wide" />
      </CatalogueForm>
    </Section>
  );
}

function GameTexts({ d }: { d: Data }) {
  const t = useT();
  const { gameId, lang, text } = d.editing;
  const gameName = d.games.find((g) => g.id === gameId)?.name ?? String(gameId);
  const [form, fields] = useCatalogueForm("game-texts", { texts: { required: true } }, { row: gameId, defaultValue: { texts: JSON.stringify(textTemplate(text), null, 2) } });
  // The texts are JSON: what is wrong inside them is said by its place ("features[0].title").
  const inside = Object.entries(form.allErrors).filter(([name]) => name.startsWith("texts."));
  return (
    <Section title={t("adminCatalogue.texts")} intents={["game-texts"]}>
      <Opener
        name="game"
        label={t("adminCatalogue.game")}
        value={gameId}
        options={d.games.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
        langName="lang"
        lang={lang}
      />
      <CatalogueForm form={form} intent="game-texts" id={gameId} reason={fields.reason} submit={t("adminCatalogue.save")}>
        <input type="hidden" name="locale" value={lang} />
        <TextareaField field={fields.texts} label={t("adminCatalogue.textsJson", { game: gameName, language: lang })} frame="wide" rows={16} spellCheck={false} />
        {inside.length > 0 && (
          <ul className="field-error wide" role="alert">
            {inside.map(([name, messages]) => (
              <li key={name}>
                <code>{name.slice("texts.".length)}</code>: {messages.join(" ")}
              </li>
            ))}
          </ul>
        )}
      </CatalogueForm>
    </Section>
  );
}

function Products({ d }: { d: Data }) {
  const t = useT();
  const locale = useLocale();
  const gameName = (id: number) => d.games.find((g) => g.id === id)?.name ?? String(id);
  return (
    <Section title={t("adminCatalogue.products")} intents={["product-update"]}>
      <RowTable head={[t("adminCatalogue.game"), t("adminCatalogue.area"), t("adminCatalogue.days"), t("adminCatalogue.price"), t("adminCatalogue.change")]}>
        {d.products.map((p) => (
          <tr key={p.id}>
            <td>{gameName(p.cheatId)}</td>
            <td>{p.area}</td>
            <td>{p.days}</td>
            <td>
              {formatMoney(p.price, d.currency, locale)}
              {!p.active && <span className="muted"> · {t("adminCatalogue.offSale")}</span>}
            </td>
            <td>
              <ProductRowForm product={p} currency={d.currency} />
            </td>
          </tr>
        ))}
      </RowTable>
      <NewProduct d={d} />
    </Section>
  );
}

/** Minor units as the price field shows them ("19.99"). */
const typedPrice = (minor: number, currency: string) => (minor / 10 ** minorDigits(currency)).toFixed(minorDigits(currency));

function ProductRowForm({ product, currency }: { product: Data["products"][number]; currency: string }) {
  const t = useT();
  const [form, fields] = useCatalogueForm(
    "product-update",
    { price: { required: true }, active: {} },
    { row: product.id, defaultValue: { price: typedPrice(product.price, currency), active: product.active ? "on" : undefined } },
  );
  return (
    <CatalogueForm form={form} intent="product-update" id={product.id} reason={fields.reason} submit={t("adminCatalogue.save")}>
      <Field field={fields.price} label={t("adminCatalogue.price")} inputMode="decimal" className="price" />
      <CheckboxField field={fields.active} label={t("adminCatalogue.onSale")} />
    </CatalogueForm>
  );
}

function NewProduct({ d }: { d: Data }) {
  const t = useT();
  const [form, fields] = useCatalogueForm(
    "product-create",
    { cheat_id: { required: true }, area: { required: true }, days: { required: true, min: 1, max: 3650 }, price: { required: true } },
    { defaultValue: { area: "global" } },
  );
  return (
    <>
      <h3 className="h4">{t("adminCatalogue.newProduct")}</h3>
      <Saved intents={["product-create"]} />
      <CatalogueForm form={form} intent="product-create" reason={fields.reason} submit={t("adminCatalogue.add")}>
        <GameSelect field={fields.cheat_id} games={d.games} label={t("adminCatalogue.game")} />
        <SelectField field={fields.area} label={t("adminCatalogue.area")}>
          {d.areas.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <Field field={fields.days} type="number" label={t("adminCatalogue.days")} className="narrow" />
        <Field field={fields.price} label={t("adminCatalogue.priceIn", { currency: d.currency })} inputMode="decimal" className="price" />
      </CatalogueForm>
    </>
  );
}

function Areas({ d }: { d: Data }) {
  const t = useT();
  return (
    <Section title={t("adminCatalogue.areas")} intents={["area-update"]}>
      {d.areas.map((a) => (
        <AreaForm key={a.id} area={a} />
      ))}
      <h3 className="h4">{t("adminCatalogue.newArea")}</h3>
      <Saved intents={["area-create"]} />
      <AreaForm />
    </Section>
  );
}

/** An area's name and countries: of the area given, or of a new one (then with its id). The global area has no countries. */
function AreaForm({ area }: { area?: Data["areas"][number] }) {
  const t = useT();
  const [form, fields] = useCatalogueForm(
    area ? "area-update" : "area-create",
    { id: { required: true }, name: { required: true }, countries: {} },
    { row: area?.id, defaultValue: area && { name: area.name, countries: area.countries.join(", ") } },
  );
  return (
    <CatalogueForm form={form} intent={area ? "area-update" : "area-create"} id={area?.id} reason={fields.reason} submit={area ? t("adminCatalogue.save") : t("adminCatalogue.add")}>
      {area ? <code>{area.id}</code> : <Field field={fields.id} label={t("adminCatalogue.areaId")} />}
      <Field field={fields.name} label={t("adminCatalogue.name")} />
      <Field field={fields.countries} label={t("adminCatalogue.countries")} frame="wide" placeholder="DE, FR, IT" disabled={area?.id === "global"} />
    </CatalogueForm>
  );
}

function Rules({ d }: { d: Data }) {
  const t = useT();
  return (
    <Section title={t("adminCatalogue.rules")} intents={["rule-delete"]}>
      <ul className="admin-rules">
        {d.rules.map((r) => (
          <li key={r.id}>
            <code>{r.from}</code> → <code>{r.to}</code> ({r.status})
            <RuleDeleteForm id={r.id} />
          </li>
        ))}
      </ul>
      <h3 className="h4">{t("adminCatalogue.newRule")}</h3>
      <Saved intents={["rule-create"]} />
      <NewRule />
    </Section>
  );
}

function RuleDeleteForm({ id }: { id: number }) {
  const t = useT();
  const [form, fields] = useCatalogueForm("rule-delete", {}, { row: id });
  return <CatalogueForm form={form} intent="rule-delete" id={id} reason={fields.reason} submit={t("adminCatalogue.remove")} variant="secondary" />;
}

function NewRule() {
  const t = useT();
  const [form, fields] = useCatalogueForm("rule-create", { from: { required: true }, to: { required: true }, status: { required: true } }, { defaultValue: { status: "302" } });
  return (
    <CatalogueForm form={form} intent="rule-create" reason={fields.reason} submit={t("adminCatalogue.add")}>
      <Field field={fields.from} label={t("adminCatalogue.from")} placeholder="/en/old/*" />
      <Field field={fields.to} label={t("adminCatalogue.to")} placeholder="/en/dota2" />
      <SelectField field={fields.status} label={t("adminCatalogue.redirect")}>
        <option value="301">301</option>
        <option value="302">302</option>
      </SelectField>
    </CatalogueForm>
  );
}

function SitePage({ d }: { d: Data }) {
  const t = useT();
  const { slug, locale, page } = d.sitePage;
  const [form, fields] = useCatalogueForm(
    "page-write",
    { title: { required: true, maxLength: 200 }, summary: { maxLength: 500 }, body: { required: true } },
    { defaultValue: { title: page?.title ?? "", summary: page?.summary ?? "", body: page?.body ?? "" } },
  );
  return (
    <Section title={t("adminCatalogue.sitePages")} intents={["page-write"]}>
      <Opener
        name="page"
        label={t("adminCatalogue.page")}
        value={slug}
        options={SITE_PAGES.map((s) => (
          <option key={s}>{s}</option>
        ))}
        langName="plang"
        lang={locale}
      />
      <CatalogueForm form={form} intent="page-write" reason={fields.reason} submit={t("adminCatalogue.save")}>
        <input type="hidden" name="slug" value={slug} />
        <input type="hidden" name="locale" value={locale} />
        <Field field={fields.title} label={t("adminCatalogue.pageTitle")} frame="wide" />
        <Field field={fields.summary} label={t("adminCatalogue.summary")} frame="wide" />
        <TextareaField field={fields.body} label={t("adminCatalogue.body")} frame="wide" rows={12} />
      </CatalogueForm>
    </Section>
  );
}

/** A language's texts as the JSON the form edits (the wire's field names), or an empty template. */
function textTemplate(text: Record<string, unknown> | null) {
  const empty = { name: "", tagline: "", description: "", features: [], requirements: [], modes: [], changelog: [], faq: [], media: [], status_note: "" };
  if (!text) return empty;
  const { locale: _l, updatedAt: _u, statusNote, ...rest } = text as Record<string, unknown> & { statusNote?: string };
  return { ...empty, ...rest, status_note: statusNote ?? "" };
}
