// A loopback receiver of outgoing webhooks (docs/product/delivery.md#webhooks): records every request
// (headers and raw body) and answers each as told — a status, or "hang" (no answer until released,
// so the sender's timeout or a crash meets it). Unscripted requests get 200.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { headers: IncomingHttpHeaders; body: string; json: { id: string; type: string; created_at: string; data: Record<string, unknown> } };
export type Answer = number | "hang";

export type WebhookReceiver = {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order. */
  script(...answers: Answer[]): void;
  /** Answers every hanging request with this status (or drops it). */
  release(status?: number | "drop"): void;
  /** Waits until `count` requests arrived (deadline 10 s). */
  waitFor(count: number): Promise<void>;
  stop(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      const answer = answers.shift() ?? 200;
      if (answer === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" }).end(String(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    script: (...next) => answers.push(...next),
    release(status = 200) {
      for (const res of hanging) {
        if (status === "drop") res.destroy();
        else res.writeHead(status).end();
      }
      hanging.clear();
    },
    async waitFor(count) {
      const deadline = Date.now() + 10_000;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
