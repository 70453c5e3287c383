// Route rules (docs/product/routes.md#route-rules): redirects that every page request consults
// before anything else, the page-cache fast path and the root redirect included. The table is
// small and read on every page, so it is held in memory; a change drops it at once (`changed()`)
// and the next lookup reads it again. Operators manage the rules in the back office (core/catalog/manage.ts,
// audited through the `inTransaction` hook of `add` and `remove`).
//
// Matching (docs/product/routes.md#route-rules): `from` is the full requested path, locale prefix
// included — exact, or a prefix ending in "*"; an exact rule wins over prefixes, a longer prefix
// over a shorter one. The query string is kept unless `to` has one. `to` is a path of this site or
// an absolute http(s) URL, which leaves the site (the one exception to the never-leave-the-site
// rule of redirects). No chains: a rule whose target another rule (or itself) matches is refused.
import { asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { routeRules } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import { createChanges } from "../shared/changes.ts";

export type RouteRuleStatus = 301 | 302;

export type RouteRule = { id: number; from: string; to: string; status: RouteRuleStatus; createdAt: Date };

export type RouteRuleInput = { from: string; to: string; status?: RouteRuleStatus };

/** Where a matching rule sends the request. `external`: the target is off this site. */
export type RouteRedirect = { location: string; status: RouteRuleStatus; external: boolean; rule: RouteRule };

/** The loaded table, matched without touching the database. */
export type RouteRuleTable = {
  readonly size: number;
  /** The redirect for a page path (as requested, locale prefix included) and its query ("" or "?a=1"), or undefined. */
  match(path: string, search?: string): RouteRedirect | undefined;
};

const MAX_LENGTH = 2000;
// Printable ASCII without spaces, "?" or "#": a path as it stands in a request line.
const PATH = /^\/[\x21-\x7e]*$/;

function isPath(value: string): boolean {
  return value.length <= MAX_LENGTH && PATH.test(value) && !value.includes("?") && !value.includes("#");
}

/** A target of this site: a path (no "//" or "/\" that a browser reads as another host), with an optional query. */
function isLocalTarget(value: string): boolean {
  return value.length <= MAX_LENGTH && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) && !value.includes("#");
}

function isAbsoluteTarget(value: string): boolean {
  // Printable ASCII only (an international host in its xn-- form).
  if (value.length > MAX_LENGTH || !/^[\x21-\x7e]+$/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
}

function build(rules: RouteRule[]): RouteRuleTable {
  const exact = new Map<string, RouteRule>();
  const prefixes: { prefix: string; rule: RouteRule }[] = [];
  for (const rule of rules) {
    if (rule.from.endsWith("*")) prefixes.push({ prefix: rule.from.slice(0, -1), rule });
    else exact.set(rule.from, rule);
  }
  prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  const find = (path: string) => exact.get(path) ?? prefixes.find((p) => path.startsWith(p.prefix))?.rule;
  return {
    size: rules.length,
    match(path, search = "") {
      const rule = find(path);
      if (!rule) return undefined;
      const keepQuery = search !== "" && search !== "?" && !rule.to.includes("?");
      return { location: keepQuery ? `${rule.to}${search.startsWith("?") ? search : `?${search}`}` : rule.to, status: rule.status, external: !rule.to.startsWith("/"), rule };
    },
  };
}

export type RouteRules = ReturnType<typeof createRouteRules>;

export function createRouteRules({ db, publicUrl }: { db: Db; publicUrl: string }) {
  const origin = new URL(publicUrl).origin;
  let table: RouteRuleTable | undefined;
  let loading: Promise<RouteRuleTable> | undefined;
  // Bumped by every change: a read that started before it is not kept.
  let generation = 0;
  const changes = createChanges();

  const toRule = (row: typeof routeRules.$inferSelect): RouteRule => ({ ...row, status: row.status === 301 ? 301 : 302 });

  async function all(): Promise<RouteRule[]> {
    return (await db.select().from(routeRules).orderBy(asc(routeRules.id))).map(toRule);
  }

  function load(): Promise<RouteRuleTable> {
    if (table) return Promise.resolve(table);
    if (loading) return loading;
    const started = generation;
    const attempt = all().then(
      (rules) => {
        const built = build(rules);
        if (generation === started) table = built;
        loading = undefined;
        return generation === started ? built : load();
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    loading = attempt;
    return attempt;
  }

  function changed(): void {
    generation++;
    table = undefined;
    changes.changed();
  }

  /** The path of this site a target leads to (its query dropped), or undefined when it leaves the site. */
  function localPathOf(to: string): string | undefined {
    if (to.startsWith("/")) return to.split("?")[0]!;
    const url = new URL(to);
    return url.origin === origin ? url.pathname : undefined;
  }

  return {
    /** Reads the table (at boot; afterwards a lookup reads it when it was dropped). */
    async reload(): Promise<void> {
      table = undefined;
      await load();
    },

    /**
     * The table as loaded, without waiting; undefined while it is not (after a change, until the
     * next lookup read it). The page-cache fast path leaves such a request to the app.
     */
    cached(): RouteRuleTable | undefined {
      return table;
    },

    /** The redirect for a page request, reading the table first when it was dropped. */
    async lookup(path: string, search = ""): Promise<RouteRedirect | undefined> {
      return (await load()).match(path, search);
    },

    /**
     * The rules changed (here, or in the back office of this process): the table is dropped now
     * and read again by the next lookup; listeners (the page cache) are told. Another process
     * learns of it through the change bus (docs/product/operations.md#change-bus).
     */
    changed,

    onChange: changes.onChange,

    list: all,

    /**
     * Adds a rule. Refuses (validation_failed, by field) a `from` that is not a path, a `to` that is
     * neither a path of this site nor an absolute http(s) URL, a chain (its target matched by a
     * rule, or a rule's target matched by it), and a `from` that already has a rule (conflict).
     */
    async add(input: RouteRuleInput, inTransaction?: (tx: Tx, rule: RouteRule) => Promise<void>): Promise<RouteRule> {
      const status = input.status ?? 302;
      const refuse = (field: "from" | "to" | "status", key: "validation.route_rule_from" | "validation.route_rule_to" | "validation.route_rule_chain" | "validation.invalid") =>
        new DomainError("validation_failed", "errors.validation_failed", { fields: { [field]: key } });
      const from = input.from.trim();
      const to = input.to.trim();
      if (!isPath(from) || (from.includes("*") && from.indexOf("*") !== from.length - 1)) throw refuse("from", "validation.route_rule_from");
      if (!isLocalTarget(to) && !isAbsoluteTarget(to)) throw refuse("to", "validation.route_rule_to");
      if (status !== 301 && status !== 302) throw refuse("status", "validation.invalid");
      const taken = () => new DomainError("conflict", "errors.conflict", { fields: { from: "validation.route_rule_taken" } });
      const row = await db.transaction(async (tx) => {
        // One writer at a time: two rules added at once could otherwise make a chain together.
        await tx.execute(sql`lock table route_rules in share row exclusive mode`);
        const existing = (await tx.select().from(routeRules)).map(toRule);
        if (existing.some((r) => r.from === from)) throw taken();
        const draft: RouteRule = { id: 0, from, to, status, createdAt: new Date() };
        const target = localPathOf(to);
        const chained =
          (target !== undefined && build([...existing, draft]).match(target) !== undefined) ||
          existing.some((r) => {
            const path = localPathOf(r.to);
            return path !== undefined && build([draft]).match(path) !== undefined;
          });
        if (chained) throw refuse("to", "validation.route_rule_chain");
        const [inserted] = await tx.insert(routeRules).values({ from, to, status }).returning();
        // The back office's audit entry, in the same transaction as the rule.
        await inTransaction?.(tx, toRule(inserted!));
        return inserted!;
      });
      changed();
      return toRule(row);
    },

    /** Removes a rule; whether there was one. `inTransaction` runs with the removed rule, before the commit. */
    async remove(id: number, inTransaction?: (tx: Tx, rule: RouteRule) => Promise<void>): Promise<boolean> {
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx.delete(routeRules).where(eq(routeRules.id, id)).returning();
        if (row) await inTransaction?.(tx, toRule(row));
        return row !== undefined;
      });
      if (removed) changed();
      return removed;
    },
  };
}
