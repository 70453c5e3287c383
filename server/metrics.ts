// The process's metrics in Prometheus text format (docs/product/operations.md#metrics): requests by
// route pattern (never the raw path: its cardinality is the visitors'), their latency, payments by
// provider and result, background job runs and failures, the database pool, and Node's own
// (CPU, memory, event loop). One registry per process; every worker of WEB_CONCURRENCY answers for
// itself, so Prometheus scrapes each worker (or each host) and sums.
import { timingSafeEqual } from "node:crypto";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";
import type { Database } from "../db/client.ts";

export type Metrics = ReturnType<typeof createMetrics>;

/** Latency buckets in seconds: a cached page answers in well under a millisecond, a PayPal capture in seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RequestSeries = { method: string; route: string; byStatus: Map<number, number>; buckets: number[]; sum: number; count: number };

/**
 * The request count and latency histogram, kept by the shop itself and handed to prom-client's
 * registry as two metrics of its text format (docs/decisions/0070-pass-through-requests-and-lighter-cache-hits.md). prom-client's Counter and Histogram
 * build, validate and hash a labels object on every call, which was 5 % of a page-cache hit's CPU;
 * here a request adds to the numbers of its (method, route) series, found by two Map lookups.
 */
function requestMetrics() {
  const series = new Map<string, Map<string, RequestSeries>>();
  function record(method: string, route: string, status: number, seconds: number) {
    let byRoute = series.get(method);
    if (!byRoute) series.set(method, (byRoute = new Map()));
    let one = byRoute.get(route);
    if (!one) byRoute.set(route, (one = { method, route, byStatus: new Map(), buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    one.byStatus.set(status, (one.byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) one.buckets[i]!++;
    one.sum += seconds;
    one.count++;
  }
  const all = () => [...series.values()].flatMap((byRoute) => [...byRoute.values()]);
  type Value = { labels: Record<string, string | number>; value: number; metricName?: string };
  const counter = {
    name: "shop_http_requests_total",
    help: "Requests answered, by method, route pattern and status.",
    type: "counter",
    aggregator: "sum",
    reset: () => series.clear(),
    get: () => ({
      name: counter.name,
      help: counter.help,
      type: counter.type,
      aggregator: counter.aggregator,
      values: all().flatMap((s) => [...s.byStatus].map(([status, value]): Value => ({ labels: { method: s.method, route: s.route, status: String(status) }, value }))),
    }),
  };
  const name = "shop_http_request_duration_seconds";
  const histogram = {
    name,
    help: "Time from the request's arrival to its answer, by method and route pattern.",
    type: "histogram",
    aggregator: "sum",
    reset: () => series.clear(),
    get: () => ({
      name,
      help: histogram.help,
      type: histogram.type,
      aggregator: histogram.aggregator,
      values: all().flatMap((s) => {
        let cumulative = 0;
        const values: Value[] = LATENCY_BUCKETS.map((le, i) => ({ labels: { le, method: s.method, route: s.route }, value: (cumulative += s.buckets[i]!), metricName: `${name}_bucket` }));
        values.push({ labels: { le: "+Inf", method: s.method, route: s.route }, value: s.count, metricName: `${name}_bucket` });
        values.push({ labels: { method: s.method, route: s.route }, value: s.sum, metricName: `${name}_sum` });
        values.push({ labels: { method: s.method, route: s.route }, value: s.count, metricName: `${name}_count` });
        return values;
      }),
    }),
  };
  return { record, counter, histogram };
}

export function createMetrics(options: { database: Database; processMetrics?: boolean }) {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requests = requestMetrics();
  // The registry reads a metric through get() (and reset()); prom-client's type names its own classes only.
  registry.registerMetric(requests.counter as unknown as Metric);
  registry.registerMetric(requests.histogram as unknown as Metric);
  const payments = new Counter({
    name: "shop_payments_total",
    help: "Payment operations at the provider (create, capture, webhook), by provider and result (ok or the error code).",
    labelNames: ["provider", "operation", "result"],
    registers: [registry],
  });
  const jobRuns = new Counter({ name: "shop_job_runs_total", help: "Background job runs, by job.", labelNames: ["job"], registers: [registry] });
  const jobFailures = new Counter({ name: "shop_job_failures_total", help: "Background job runs that failed, by job.", labelNames: ["job"], registers: [registry] });
  new Gauge({
    name: "shop_db_pool_connections",
    help: "Database pool connections by state: open (in use or idle), idle, waiting (requests queued for one), max.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const pool = options.database.pool();
      this.set({ state: "open" }, pool.size);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "in_use" }, pool.size - pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
      this.set({ state: "max" }, pool.max);
    },
  });
  const ownRows = new Counter({
    name: "shop_own_rows_total",
    help: "Signed-in frontend/data answers by where the user's row, transactions and subscriptions came from: kept (this process had them at their version) or read.",
    labelNames: ["source"],
    registers: [registry],
  });
  const sessionLookups = new Histogram({
    name: "shop_session_lookups_per_statement",
    help: "Session lookups read together in one statement (the requests that arrived in one turn of the event loop), by the lookup's prepared statement.",
    labelNames: ["statement"],
    buckets: [1, 2, 4, 8, 16, 32, 64, 100],
    registers: [registry],
  });
  // Which process answered: with WEB_CONCURRENCY each worker has its own numbers.
  new Gauge({ name: "shop_process_info", help: "1, labelled with the answering process's id.", labelNames: ["pid"], registers: [registry] }).set({ pid: String(process.pid) }, 1);

  return {
    registry,
    /** One answered request: `route` is a pattern ("/:game/profile", "/v2/web/frontend/data"). */
    request: requests.record,
    payment(provider: string, operation: string, result: string) {
      payments.inc({ provider, operation, result });
    },
    job(job: string, failed: boolean) {
      jobRuns.inc({ job });
      if (failed) jobFailures.inc({ job });
    },
    /** A signed-in frontend/data answer's own rows: kept in this process or read (docs/decisions/0076-own-rows-by-version.md). */
    ownRows(source: "kept" | "read") {
      ownRows.inc({ source });
    },
    /** One statement of session lookups: how many requests' tokens it read (docs/decisions/0078-session-lookups-together.md). */
    sessionLookups(statement: string, tokens: number) {
      sessionLookups.observe({ statement }, tokens);
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/** Whether an Authorization header carries the metrics token (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** What a payment operation's failure counts as: its domain code, else "error". */
export function paymentResult(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[a-z_]{1,40}$/.test(code) ? code : "error";
}

/**
 * Counts the provider operations of the payments service (in place, so its own `this` calls are
 * counted too): every create, capture and webhook by provider and result.
 */
export function countPayments<P extends { createOrder: AnyAsync; capture: AnyAsync; webhook: AnyAsync }>(payments: P, provider: string, metrics: Metrics): P {
  for (const operation of ["createOrder", "capture", "webhook"] as const) {
    const original = payments[operation];
    const name = operation === "createOrder" ? "create" : operation;
    (payments as Record<string, AnyAsync>)[operation] = async function (this: unknown, ...args: unknown[]) {
      try {
        const result: unknown = await original.apply(payments, args);
        metrics.payment(provider, name, name === "webhook" && (result as { applied?: boolean })?.applied === false ? "ignored" : "ok");
        return result;
      } catch (error) {
        metrics.payment(provider, name, paymentResult(error));
        throw error;
      }
    };
  }
  return payments;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAsync = (...args: any[]) => Promise<unknown>;
