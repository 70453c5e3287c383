// A loopback reCAPTCHA verify server for tests: speaks Google's siteverify protocol (POST an
// application/x-www-form-urlencoded body with secret, response and optionally remoteip; answer
// JSON { success, score?, "error-codes"? }) on 127.0.0.1, and records every request it got.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type SiteverifyRequest = {
  method: string;
  contentType: string;
  /** The decoded form fields. */
  form: Record<string, string>;
};

export type TestRecaptchaServer = {
  /** http://127.0.0.1:<port>/recaptcha/api/siteverify */
  url: string;
  /** The secret the server accepts; any other secret gets success: false. */
  secret: string;
  /** A token answered with success: true. */
  goodToken: string;
  /** A token answered with success: false. */
  badToken: string;
  /** A token answered with success: true but a v3 score of 0.1 (a likely bot). */
  lowScoreToken: string;
  /** A token answered with HTTP 500 (the verify service failing). */
  brokenToken: string;
  requests: SiteverifyRequest[];
  stop(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startRecaptchaServer(options: { secret?: string } = {}): Promise<TestRecaptchaServer> {
  const secret = options.secret ?? "test-recaptcha-secret";
  const tokens = { goodToken: "good-captcha-token", badToken: "bad-captcha-token", lowScoreToken: "low-score-token", brokenToken: "broken-token" };
  const requests: SiteverifyRequest[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ method: req.method ?? "", contentType: req.headers["content-type"] ?? "", form });
      const answer = (status: number, body: object) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || !req.url?.startsWith("/recaptcha/api/siteverify")) return answer(404, { success: false });
      if (form.secret !== secret) return answer(200, { success: false, "error-codes": ["invalid-input-secret"] });
      switch (form.response) {
        case tokens.goodToken:
          return answer(200, { success: true, score: 0.9, action: "submit", hostname: "localhost" });
        case tokens.lowScoreToken:
          return answer(200, { success: true, score: 0.1, action: "submit", hostname: "localhost" });
        case tokens.brokenToken:
          return answer(500, { error: "internal" });
        default:
          return answer(200, { success: false, "error-codes": ["invalid-input-response"] });
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    secret,
    ...tokens,
    requests,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return stopped;
    },
  };
}
