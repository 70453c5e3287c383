// The soak's load generator: requests at a fixed rate, whatever the answers do (an open loop).
// autocannon's `overallRate` is a closed loop per connection (each of its connections sends its
// share of a second only as its answers come back), so a slow answer held the offered rate down:
// 60 connections at 300 ms on average carry at most 200 req/s, and a soak "served 269 of 300 req/s"
// said nothing about whether the server could have served the rest. Here the i-th request leaves
// at i / rate seconds (a late timer sends what is due at once), on a keep-alive agent of at most
// MAX_SOCKETS connections (past that a request waits for a free one, and its clock runs meanwhile:
// a server that falls behind is not also flooded with new connections, which its listen backlog
// would drop); a server that cannot keep up shows as latency, then as timeouts, never as a lower
// offered rate.
import http from "node:http";

/* global setInterval, clearInterval */

const MAX_SOCKETS = 256;

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/**
 * Sends `rate` × `seconds` requests to `url`, the kinds of `kinds` in turn (`request()` of a kind
 * builds one: { method, path, headers, body }), each answer read to its end. Returns the figures
 * overall and by kind: answers, statuses, latencies (p50, p99 in ms), transport errors, timeouts
 * (no answer within `timeoutMs`), and the most requests in flight at once.
 */
export async function openLoop({ url, rate, seconds, kinds, timeoutMs = 10_000 }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const total = Math.round(rate * seconds);
  const byKind = kinds.map((kind) => ({ name: kind.name, latencies: [], statuses: {}, errors: 0, errorCodes: {}, resent: 0, timeouts: 0 }));
  let sent = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));

  const settle = () => {
    inFlight--;
    if (sent === total && inFlight === 0) done();
  };

  function fire(index) {
    const stats = byKind[index % kinds.length];
    const { method, path, headers, body } = kinds[index % kinds.length].request();
    const startedAt = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let settled = false;
    const end = (record) => {
      if (settled) return;
      settled = true;
      record();
      settle();
    };
    const failed = (error) =>
      end(() => {
        stats.errors++;
        const code = error?.code ?? error?.message ?? "closed before the end of the answer";
        stats.errorCodes[code] = (stats.errorCodes[code] ?? 0) + 1;
      });
    const send = (again) => {
      let answered = false;
      const request = http.request(
        { agent, host: target.hostname, port: target.port, method, path, headers: body === undefined ? headers : { ...headers, "Content-Length": Buffer.byteLength(body) } },
        (response) => {
          answered = true;
          response.resume();
          response.on("end", () =>
            end(() => {
              stats.latencies.push(performance.now() - startedAt);
              stats.statuses[response.statusCode] = (stats.statuses[response.statusCode] ?? 0) + 1;
            }),
          );
          // An answer cut short ends without "end": whichever comes first counts.
          response.on("error", failed);
          response.on("close", () => failed());
        },
      );
      request.setTimeout(timeoutMs, () => {
        end(() => stats.timeouts++);
        request.destroy();
      });
      request.on("error", (error) => {
        // Node's documented keep-alive race (`request.reusedSocket`): the server closed an idle
        // connection just as this request went out on it, before any answer. A browser or a
        // proxy sends an idempotent request again on a new connection; so does this client, once,
        // and counts it (`resent`). Anything else is a transport error, by its code.
        if (!again && !answered && request.reusedSocket && (method === "GET" || method === "HEAD") && error.code === "ECONNRESET") {
          stats.resent++;
          send(true);
        } else {
          failed(error);
        }
      });
      request.end(body);
    };
    send(false);
  }

  const started = performance.now();
  let stragglers;
  const timer = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    while (sent < due) fire(sent++);
    if (sent === total) {
      clearInterval(timer);
      if (inFlight === 0) done();
      // The last requests get `timeoutMs` to be answered; what is still unanswered then (a server
      // far behind, a backlog of minutes) counts as timed out, and the soak ends near its length.
      else stragglers = setTimeout(done, timeoutMs);
    }
  }, 2);
  await finished;
  clearTimeout(stragglers);
  const elapsed = (performance.now() - started) / 1000;
  const unanswered = inFlight;
  agent.destroy();

  const all = byKind.flatMap((k) => k.latencies).sort((a, b) => a - b);
  const statuses = {};
  for (const k of byKind) for (const [code, count] of Object.entries(k.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  return {
    sent,
    answered: all.length,
    elapsed,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    statuses,
    errors: byKind.reduce((n, k) => n + k.errors, 0),
    timeouts: byKind.reduce((n, k) => n + k.timeouts, 0) + unanswered,
    unanswered,
    maxInFlight,
    kinds: byKind.map((k) => {
      const sorted = k.latencies.sort((a, b) => a - b);
      return {
        name: k.name,
        answered: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        statuses: k.statuses,
        errors: k.errors,
        errorCodes: k.errorCodes,
        resent: k.resent,
        timeouts: k.timeouts,
      };
    }),
  };
}
