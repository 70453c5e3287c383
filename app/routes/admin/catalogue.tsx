// /admin/catalogue (docs/product/back-office.md#pages): games (status, visibility, order, texts per
// language with every content field), products per shopping area, areas and their countries,
// route rules, and the legal and support texts per language. Every form posts to this page and
// runs the same schema and core call as the JSON API (app/lib/admin.server.ts); each takes a
// reason. Which game's texts and which site page are open is in the query (?game=&lang=, ?page=&plang=),
// so the page works without JavaScript. Support sees everything; the writes answer it 403.
import { Form, useActionData } from "react-router";
import type { GameStatus } from "../../../core/catalog/index.ts";
import { SITE_PAGES } from "../../../core/content/slugs.ts";
import { minorDigits } from "../../../core/shared/money.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { LOCALES } from "../../../i18n/locales.ts";
import { Card } from "../../components/ui/primitives.tsx";
import type { FormOutcome } from "../../lib/admin.server.ts";
import { catalogueAction, catalogueData } from "../../lib/admin-catalogue.server.ts";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/catalogue.ts";

/** The game statuses (db/schema's GAME_STATUSES), written here so that the page's script carries no schema module. */
const GAME_STATUSES = ["working", "updating", "detected", "maintenance"] as const satisfies readonly GameStatus[];

export const loader = (args: Route.LoaderArgs) => catalogueData(args);

export const action = (args: Route.ActionArgs) => catalogueAction(args);

export const meta = ({ data }: Route.MetaArgs) => [...pageMeta(data), { name: "robots", content: "noindex" }];

function Outcome({ intent }: { intent: string }) {
  const outcome = useActionData<FormOutcome>();
  if (!outcome || outcome.intent !== intent) return null;
  return (
    <div className={outcome.ok ? "admin-notice" : "admin-notice refused"} role={outcome.ok ? "status" : "alert"}>
      <p>{outcome.message}</p>
      {Object.keys(outcome.fields).length > 0 && (
        <ul>
          {Object.entries(outcome.fields).map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Reason() {
  const t = useT();
  return (
    <label>
      {t("adminCatalogue.reason")}
      <input name="reason" required maxLength={500} />
    </label>
  );
}

function Submit({ label }: { label: string }) {
  return (
    <button type="submit" className="btn btn-primary">
      {label}
    </button>
  );
}

export default function Catalogue({ loaderData: d }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const gameName = (id: number) => d.games.find((g) => g.id === id)?.name ?? String(id);
  const major = (minor: number) => formatMoney(minor, d.currency, locale);
  const save = t("adminCatalogue.save");
  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">{t("adminCatalogue.title")}</h1>
      {!d.owner && <p className="muted">{t("adminCatalogue.readOnly")}</p>}

      <Card as="section">
        <h2 className="h3">{t("adminCatalogue.games")}</h2>
        <Outcome intent="game-update" />
        <div className="admin-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t("adminCatalogue.game")}</th>
                <th>{t("adminCatalogue.languages")}</th>
                <th>{t("adminCatalogue.change")}</th>
              </tr>
            </thead>
            <tbody>
              {d.games.map((g) => (
                <tr key={g.id}>
                  <td>
                    <strong>{g.name}</strong> <code>/{g.slug}</code> #{g.id}
                  </td>
                  <td>{g.locales.join(" ")}</td>
                  <td>
                    <Form method="post" className="admin-form">
                      <input type="hidden" name="intent" value="game-update" />
                      <input type="hidden" name="id" value={g.id} />
                      <label>
                        {t("adminCatalogue.status")}
                        <select name="status" defaultValue={g.status}>
                          {GAME_STATUSES.map((s) => (
                            <option key={s} value={s}>
                              {t(`game.status.${s}`)}
                            </option>
                          ))}
                        </select>
                      </label>
                      <label>
                        <input type="checkbox" name="visible" defaultChecked={g.visible} /> {t("adminCatalogue.visible")}
                      </label>
                      <label>
                        {t("adminCatalogue.order")}
                        <input type="number" name="order" defaultValue={g.order} className="narrow" />
                      </label>
                      <Reason />
                      <Submit label={save} />
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <div className="admin-grid">
        <Card as="section">
          <h2 className="h3">{t("adminCatalogue.newGame")}</h2>
          <Outcome intent="game-create" />
          <Form method="post" className="admin-form">
            <input type="hidden" name="intent" value="game-create" />
            <label>
              {t("adminCatalogue.slug")}
              <input name="slug" required pattern="[a-z0-9][a-z0-9\-]{1,31}" />
            </label>
            <label>
              {t("adminCatalogue.name")}
              <input name="name" required />
            </label>
            <label>
              {t("adminCatalogue.language")}
              <select name="locale" defaultValue={locale}>
                {LOCALES.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </label>
            <label>
              {t("adminCatalogue.status")}
              <select name="status" defaultValue="working">
                {GAME_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`game.status.${s}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t("adminCatalogue.order")}
              <input type="number" name="order" defaultValue={0} className="narrow" />
            </label>
            <label>
              <input type="checkbox" name="visible" defaultChecked /> {t("adminCatalogue.visible")}
            </label>
            <label className="wide">
              {t("adminCatalogue.tagline")}
              <input name="tagline" />
            </label>
            <label className="wide">
              {t("adminCatalogue.description")}
              <textarea name="description" />
            </label>
            <Reason />
            <Submit label={t("adminCatalogue.add")} />
          </Form>
        </Card>

        <Card as="section">
          <h2 className="h3">{t("adminCatalogue.texts")}</h2>
          <form method="get" className="admin-form">
            <label>
              {t("adminCatalogue.game")}
              <select name="game" defaultValue={d.editing.gameId}>
                {d.games.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t("adminCatalogue.language")}
              <select name="lang" defaultValue={d.editing.lang}>
                {LOCALES.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn btn-secondary">
              {t("adminCatalogue.open")}
            </button>
          </form>
          <Outcome intent="game-texts" />
          <Form method="post" className="admin-form" key={`${d.editing.gameId}-${d.editing.lang}`}>
            <input type="hidden" name="intent" value="game-texts" />
            <input type="hidden" name="id" value={d.editing.gameId} />
            <input type="hidden" name="locale" value={d.editing.lang} />
            <label className="wide">
              {t("adminCatalogue.textsJson", { game: gameName(d.editing.gameId), language: d.editing.lang })}
              <textarea name="texts" rows={16} defaultValue={JSON.stringify(textTemplate(d.editing.text), null, 2)} spellCheck={false} />
            </label>
            <Reason />
            <Submit label={save} />
          </Form>
        </Card>
      </div>

      <Card as="section">
        <h2 className="h3">{t("adminCatalogue.products")}</h2>
        <Outcome intent="product-update" />
        <div className="admin-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t("adminCatalogue.game")}</th>
                <th>{t("adminCatalogue.area")}</th>
                <th>{t("adminCatalogue.days")}</th>
                <th>{t("adminCatalogue.price")}</th>
                <th>{t("adminCatalogue.change")}</th>
              </tr>
            </thead>
            <tbody>
              {d.products.map((p) => (
                <tr key={p.id}>
                  <td>{gameName(p.cheatId)}</td>
                  <td>{p.area}</td>
                  <td>{p.days}</td>
                  <td>
                    {major(p.price)}
                    {!p.active && <span className="muted"> · {t("adminCatalogue.offSale")}</span>}
                  </td>
                  <td>
                    <Form method="post" className="admin-form">
                      <input type="hidden" name="intent" value="product-update" />
                      <input type="hidden" name="id" value={p.id} />
                      <label>
                        {t("adminCatalogue.price")}
                        <input name="price" inputMode="decimal" defaultValue={(p.price / 10 ** minorDigits(d.currency)).toFixed(minorDigits(d.currency))} className="price" />
                      </label>
                      <label>
                        <input type="checkbox" name="active" defaultChecked={p.active} /> {t("adminCatalogue.onSale")}
                      </label>
                      <Reason />
                      <Submit label={save} />
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h3 className="h4">{t("adminCatalogue.newProduct")}</h3>
        <Outcome intent="product-create" />
        <Form method="post" className="admin-form">
          <input type="hidden" name="intent" value="product-create" />
          <label>
            {t("adminCatalogue.game")}
            <select name="cheat_id">
              {d.games.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("adminCatalogue.area")}
            <select name="area" defaultValue="global">
              {d.areas.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("adminCatalogue.days")}
            <input type="number" name="days" min={1} max={3650} required className="narrow" />
          </label>
          <label>
            {t("adminCatalogue.priceIn", { currency: d.currency })}
            <input name="price" inputMode="decimal" required className="price" />
          </label>
          <Reason />
          <Submit label={t("adminCatalogue.add")} />
        </Form>
      </Card>

      <div className="admin-grid">
        <Card as="section">
          <h2 className="h3">{t("adminCatalogue.areas")}</h2>
          <Outcome intent="area-update" />
          {d.areas.map((a) => (
            <Form method="post" className="admin-form" key={a.id}>
              <input type="hidden" name="intent" value="area-update" />
              <input type="hidden" name="area" value={a.id} />
              <label>
                <code>{a.id}</code>
                <input name="name" defaultValue={a.name} required />
              </label>
              <label className="wide">
                {t("adminCatalogue.countries")}
                <input name="countries" defaultValue={a.countries.join(", ")} disabled={a.id === "global"} />
              </label>
              <Reason />
              <Submit label={save} />
            </Form>
          ))}
          <h3 className="h4">{t("adminCatalogue.newArea")}</h3>
          <Outcome intent="area-create" />
          <Form method="post" className="admin-form">
            <input type="hidden" name="intent" value="area-create" />
            <label>
              {t("adminCatalogue.areaId")}
              <input name="area" required />
            </label>
            <label>
              {t("adminCatalogue.name")}
              <input name="name" required />
            </label>
            <label className="wide">
              {t("adminCatalogue.countries")}
              <input name="countries" placeholder="DE, FR, IT" />
            </label>
            <Reason />
            <Submit label={t("adminCatalogue.add")} />
          </Form>
        </Card>

        <Card as="section">
          <h2 className="h3">{t("adminCatalogue.rules")}</h2>
          <Outcome intent="rule-delete" />
          <ul className="admin-rules">
            {d.rules.map((r) => (
              <li key={r.id}>
                <code>{r.from}</code> → <code>{r.to}</code> ({r.status})
                <Form method="post" className="admin-form">
                  <input type="hidden" name="intent" value="rule-delete" />
                  <input type="hidden" name="id" value={r.id} />
                  <Reason />
                  <button type="submit" className="btn btn-secondary">
                    {t("adminCatalogue.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <h3 className="h4">{t("adminCatalogue.newRule")}</h3>
          <Outcome intent="rule-create" />
          <Form method="post" className="admin-form">
            <input type="hidden" name="intent" value="rule-create" />
            <label>
              {t("adminCatalogue.from")}
              <input name="from" required placeholder="/en/old/*" />
            </label>
            <label>
              {t("adminCatalogue.to")}
              <input name="to" required placeholder="/en/dota2" />
            </label>
            <label>
              {t("adminCatalogue.redirect")}
              <select name="status" defaultValue="302">
                <option value="301">301</option>
                <option value="302">302</option>
              </select>
            </label>
            <Reason />
            <Submit label={t("adminCatalogue.add")} />
          </Form>
        </Card>
      </div>

      <Card as="section">
        <h2 className="h3">{t("adminCatalogue.sitePages")}</h2>
        <form method="get" className="admin-form">
          <label>
            {t("adminCatalogue.page")}
            <select name="page" defaultValue={d.sitePage.slug}>
              {SITE_PAGES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            {t("adminCatalogue.language")}
            <select name="plang" defaultValue={d.sitePage.locale}>
              {LOCALES.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-secondary">
            {t("adminCatalogue.open")}
          </button>
        </form>
        <Outcome intent="page-write" />
        <Form method="post" className="admin-form" key={`${d.sitePage.slug}-${d.sitePage.locale}`}>
          <input type="hidden" name="intent" value="page-write" />
          <input type="hidden" name="slug" value={d.sitePage.slug} />
          <input type="hidden" name="locale" value={d.sitePage.locale} />
          <label className="wide">
            {t("adminCatalogue.pageTitle")}
            <input name="title" defaultValue={d.sitePage.page?.title ?? ""} required />
          </label>
          <label className="wide">
            {t("adminCatalogue.summary")}
            <input name="summary" defaultValue={d.sitePage.page?.summary ?? ""} />
          </label>
          <label className="wide">
            {t("adminCatalogue.body")}
            <textarea name="body" rows={12} defaultValue={d.sitePage.page?.body ?? ""} required />
          </label>
          <Reason />
          <Submit label={save} />
        </Form>
      </Card>
    </section>
  );
}

/** A language's texts as the JSON the form edits (the wire's field names), or an empty template. */
function textTemplate(text: Record<string, unknown> | null) {
  const empty = { name: "", tagline: "", description: "", features: [], requirements: [], modes: [], changelog: [], faq: [], media: [], status_note: "" };
  if (!text) return empty;
  const { locale: _l, updatedAt: _u, statusNote, ...rest } = text as Record<string, unknown> & { statusNote?: string };
  return { ...empty, ...rest, status_note: statusNote ?? "" };
}
