// The HTTP server under the loopback providers of the tests (paypal.ts, btcpay.ts): it listens on
// 127.0.0.1, reads each call's body (JSON where it parses, the raw text otherwise), records the
// call, and answers it as the provider's `handle` says — unless a knob says otherwise: the next n
// calls matching answer the provider's 500, are answered late, or get no answer at all (the
// client's timeout must fire). `stop` ends open connections too, so a hung call does not keep the
// test process alive.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type KitRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text (a form-encoded post). */
  body: unknown;
  /** The provider's idempotency header (PayPal-Request-Id), if the kit names one and it was sent. */
  requestId?: string;
  /** The status answered, or "hung" (no answer). */
  answered: number | "hung";
};

/** Which calls a knob applies to: all (default), or those whose "METHOD /path" matches. */
export type Match = RegExp | undefined;

/** A provider's answer: JSON, or text of `contentType` (a certificate, say). */
export type Answer = { status: number; json: unknown; contentType?: string };

type Knob = { left: number; match: Match; process?: boolean; ms?: number };

export type LoopbackOptions = {
  /** The provider's answer to a recorded call. */
  handle(request: KitRequest): Answer;
  /** What a failing call answers (the provider's own 500). */
  failure(): Answer;
  /** Headers of every answer (a provider's debug id). */
  headers?: Record<string, string>;
  /** The header that carries the provider's idempotency key, recorded as `requestId`. */
  requestIdHeader?: string;
  /** Pages the provider serves to people rather than to the shop (a checkout): not recorded, no knobs; true when it answered. */
  page?(method: string, path: string, res: ServerResponse): Promise<boolean>;
};

export type Loopback = {
  url: string;
  requests: KitRequest[];
  /** The next n calls matching answer `failure()`. */
  failNext(n: number, match?: Match): void;
  /** The next n calls matching take effect at once but are answered only after `ms`. */
  delayNext(n: number, ms: number, match?: Match): void;
  /** The next n calls matching get no answer at all; with process: true the call still takes effect. */
  hangNext(n: number, match?: Match, options?: { process?: boolean }): void;
  /** Requests to a path (regex on "METHOD /path"). */
  requestsTo(match: RegExp): KitRequest[];
  /** Drops every knob. */
  resetKnobs(): void;
  stop(): Promise<void>;
};

export async function startLoopback(options: LoopbackOptions): Promise<Loopback> {
  const requests: KitRequest[] = [];
  const sockets = new Set<Socket>();
  let failures: Knob[] = [];
  let hangs: Knob[] = [];
  let delays: Knob[] = [];

  const take = (list: Knob[], line: string): Knob | undefined => {
    const knob = list.find((k) => k.left > 0 && (!k.match || k.match.test(line)));
    if (knob) knob.left--;
    return knob;
  };

  const answer = async (incoming: IncomingMessage, res: ServerResponse, text: string) => {
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* form-encoded */
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(incoming.headers)) if (typeof v === "string") headers[k] = v;
    const path = (incoming.url ?? "/").split("?")[0]!;
    const method = incoming.method ?? "GET";
    if (options.page && (await options.page(method, path, res))) return;
    const entry: KitRequest = { method, path, headers, body, answered: 0 };
    if (options.requestIdHeader) entry.requestId = headers[options.requestIdHeader];
    requests.push(entry);
    const line = `${method} ${path}`;
    const hang = take(hangs, line);
    if (hang) {
      if (hang.process) options.handle(entry);
      entry.answered = "hung";
      return; // never answered: the client's timeout must fire
    }
    const reply = take(failures, line) ? options.failure() : options.handle(entry);
    entry.answered = reply.status;
    const send = () => {
      res.writeHead(reply.status, { "content-type": reply.contentType ?? "application/json", ...options.headers });
      res.end(reply.contentType ? String(reply.json) : JSON.stringify(reply.json));
    };
    const delay = take(delays, line);
    if (delay) setTimeout(send, delay.ms);
    else send();
  };

  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (c: Buffer) => chunks.push(c));
    incoming.on("end", () => void answer(incoming, res, Buffer.concat(chunks).toString("utf8")));
  });
  // Like the proxies in front of real providers (nginx keeps an idle connection 75 s), idle
  // connections are left for the client to close: with node's 5 s default, the server could close
  // a socket just as the shop's fetch (undici, 4 s idle) reused it on a busy machine, and the call
  // failed with ECONNRESET.
  server.keepAliveTimeout = 75_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext(n, match) {
      failures.push({ left: n, match });
    },
    delayNext(n, ms, match) {
      delays.push({ left: n, match, ms });
    },
    hangNext(n, match, knob = {}) {
      hangs.push({ left: n, match, process: knob.process });
    },
    requestsTo: (match) => requests.filter((r) => match.test(`${r.method} ${r.path}`)),
    resetKnobs() {
      failures = [];
      hangs = [];
      delays = [];
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
