// /admin/audit: the audit log (docs/product/back-office.md#audit-log), newest first, filtered by
// actor (an operator's id), target (`user:42`, or a type alone) and action (`user.grant`), cursor
// paged. Read only: nothing on the web edits or deletes an entry.
import { auditFilterOf, AuditQuerySchema } from "../../../core/admin/index.ts";
import { AuditRows, FilteredList, FilterField } from "../../components/admin.tsx";
import { listQuery, requireOperatorPage } from "../../lib/admin.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/audit.ts";

export const handle: RouteHandle = { hydrate: false };

const FILTERS = ["actor", "target", "action"] as const;

export async function loader({ context, request, url }: Route.LoaderArgs) {
  requireOperatorPage(context, request, url);
  const { t, services } = context;
  const { params, filter } = listQuery(url, FILTERS);
  const meta = { title: t("admin.audit.title"), description: t("admin.audit.title") };
  const parsed = AuditQuerySchema.safeParse(params);
  if (!parsed.success) return { filter, entries: [], nextCursor: null, error: t("admin.audit.filterInvalid"), meta };
  const page = await services.audit.list(auditFilterOf(parsed.data));
  return { filter, entries: page.entries, nextCursor: page.nextCursor === null ? null : String(page.nextCursor), error: null, meta };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function AuditLog({ loaderData: { filter, entries, nextCursor, error } }: Route.ComponentProps) {
  const t = useT();
  const fields = (
    <>
      <FilterField id="audit-actor" label={t("admin.col.actor")}>
        <input id="audit-actor" name="actor" inputMode="numeric" defaultValue={filter.actor} placeholder="42" />
      </FilterField>
      <FilterField id="audit-target" label={t("admin.col.target")}>
        <input id="audit-target" name="target" defaultValue={filter.target} placeholder="user:42" />
      </FilterField>
      <FilterField id="audit-action" label={t("admin.col.action")}>
        <input id="audit-action" name="action" defaultValue={filter.action} placeholder="user.grant" />
      </FilterField>
    </>
  );
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("admin.audit.title")}</h1>
      <p className="muted">{t("admin.audit.lead")}</p>
      <FilteredList filter={filter} fields={fields} error={error} nextCursor={nextCursor}>
        <AuditRows entries={entries} />
      </FilteredList>
    </section>
  );
}
