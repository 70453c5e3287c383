// /admin/audit: the audit log (docs/product/back-office.md#audit-log), newest first, filtered by
// actor (an operator's id), target (`user:42`, or a type alone) and action (`user.grant`), cursor
// paged. Read only: nothing on the web edits or deletes an entry.
import { Form } from "react-router";
import { auditFilterOf, AuditQuerySchema } from "../../../core/admin/index.ts";
import { AuditRows, NextPage } from "../../components/admin.tsx";
import { FormMessage } from "../../components/forms.tsx";
import { requireOperatorPage } from "../../lib/admin.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/audit.ts";

export const handle: RouteHandle = { hydrate: false };

const FILTERS = ["actor", "target", "action"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperatorPage(context, request);
  const { t, services } = context;
  const url = new URL(request.url);
  const params = Object.fromEntries([...url.searchParams].filter(([name, value]) => value.trim() !== "" && (name === "cursor" || (FILTERS as readonly string[]).includes(name))));
  const filter = Object.fromEntries(FILTERS.map((name) => [name, params[name] ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const meta = { title: t("admin.audit.title"), description: t("admin.audit.title") };
  const parsed = AuditQuerySchema.safeParse(params);
  if (!parsed.success) return { filter, entries: [], nextCursor: null, error: t("admin.audit.filterInvalid"), meta };
  const page = await services.audit.list(auditFilterOf(parsed.data));
  return { filter, entries: page.entries, nextCursor: page.nextCursor === null ? null : String(page.nextCursor), error: null, meta };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function AuditLog({ loaderData: { filter, entries, nextCursor, error } }: Route.ComponentProps) {
  const t = useT();
  const search = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== "")).toString();
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("admin.audit.title")}</h1>
      <p className="muted">{t("admin.audit.lead")}</p>
      <Form method="get" className="admin-filters" aria-label={t("admin.filters")}>
        <div className="field">
          <label htmlFor="audit-actor">{t("admin.col.actor")}</label>
          <input id="audit-actor" name="actor" inputMode="numeric" defaultValue={filter.actor} placeholder="42" />
        </div>
        <div className="field">
          <label htmlFor="audit-target">{t("admin.col.target")}</label>
          <input id="audit-target" name="target" defaultValue={filter.target} placeholder="user:42" />
        </div>
        <div className="field">
          <label htmlFor="audit-action">{t("admin.col.action")}</label>
          <input id="audit-action" name="action" defaultValue={filter.action} placeholder="user.grant" />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("admin.filter.apply")}
        </button>
      </Form>
      <FormMessage errors={error ? [error] : undefined} />
      <AuditRows entries={entries} />
      <NextPage cursor={nextCursor} search={search} />
    </section>
  );
}
