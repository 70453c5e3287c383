// A loopback SMTP server for tests: accepts every mail on 127.0.0.1 (plain text, AUTH optional and
// accepted with any password), keeps it, and parses just enough MIME to check what a user would
// read: headers (RFC 2047 encoded words), multipart bodies, quoted-printable and base64.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** The user name given with AUTH, if any. */
  authUser?: string;
  /** The message as received, in latin1 (bytes preserved). */
  raw: string;
  /** Top-level headers, lower-case names, encoded words decoded. */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  /** The first text/plain and text/html parts, decoded. */
  text?: string;
  html?: string;
};

export type TestSmtpServer = {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** The first mail (already received or still to come) for which predicate holds. */
  waitFor(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 500,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (err) => callback(err));
      stream.on("end", () => {
        try {
          const raw = Buffer.concat(chunks).toString("latin1");
          const mail: ReceivedMail = {
            ...parseMail(raw),
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            authUser: typeof session.user === "string" && session.user ? session.user : undefined,
          };
          messages.push(mail);
          for (const waiter of [...waiters]) waiter(mail);
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  server.on("error", () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  let stopped: Promise<void> | undefined;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return stopped;
    },
  };
}

// ---- minimal MIME ----

type Part = { headers: Record<string, string>; body: string };

/** Parses a raw (latin1) message into its headers and first text and HTML parts. */
export function parseMail(raw: string): Omit<ReceivedMail, "envelope" | "authUser"> {
  const top = splitPart(raw);
  const headers = Object.fromEntries(Object.entries(top.headers).map(([k, v]) => [k, decodeWords(v)]));
  const found: { text?: string; html?: string } = {};
  collectBodies(top, found);
  return { raw, headers, subject: headers.subject ?? "", from: headers.from ?? "", to: headers.to ?? "", ...found };
}

function splitPart(raw: string): Part {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** The value and parameters of a structured header such as Content-Type. */
function headerParams(value: string | undefined): { value: string; params: Record<string, string> } {
  if (!value) return { value: "", params: {} };
  const [main = "", ...rest] = value.split(";");
  const params: Record<string, string> = {};
  for (const m of rest.join(";").matchAll(/([\w-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]+)/g)) {
    params[m[1]!.toLowerCase()] = m[3] !== undefined ? m[3].replace(/\\(.)/g, "$1") : m[2]!;
  }
  return { value: main.trim().toLowerCase(), params };
}

function collectBodies(part: Part, found: { text?: string; html?: string }): void {
  const type = headerParams(part.headers["content-type"] ?? "text/plain");
  if (type.value.startsWith("multipart/")) {
    const boundary = type.params.boundary;
    if (!boundary) return;
    for (const child of splitMultipart(part.body, boundary)) collectBodies(splitPart(child), found);
    return;
  }
  if (headerParams(part.headers["content-disposition"]).value === "attachment") return;
  const key = type.value === "text/plain" ? "text" : type.value === "text/html" ? "html" : undefined;
  if (!key || found[key] !== undefined) return;
  const bytes = decodeTransfer(part.body, part.headers["content-transfer-encoding"] ?? "7bit");
  found[key] = decodeCharset(bytes, type.params.charset ?? "utf-8");
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | undefined;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) {
      if (current) parts.push(current.join("\r\n"));
      return parts;
    }
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join("\r\n"));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join("\r\n"));
  return parts;
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
    case "quoted-printable":
      return decodeQuotedPrintable(body.replace(/[ \t]+(?=\r?\n)/g, "").replace(/=\r?\n/g, ""));
    default:
      return Buffer.from(body, "latin1");
  }
}

function decodeQuotedPrintable(text: string, underscoreIsSpace = false): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const hex = c === "=" ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (underscoreIsSpace && c === "_") bytes.push(0x20);
    else bytes.push(text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** Decodes RFC 2047 encoded words; adjacent words of one charset are joined before decoding. */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g;
  let out = "";
  let last = 0;
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  const flush = () => {
    if (pending) out += decodeCharset(Buffer.concat(pending.bytes), pending.charset);
    pending = undefined;
  };
  for (const m of value.matchAll(word)) {
    const between = value.slice(last, m.index);
    const charset = m[1]!.split("*")[0]!.toLowerCase();
    const bytes = m[2]!.toLowerCase() === "b" ? Buffer.from(m[3]!, "base64") : decodeQuotedPrintable(m[3]!, true);
    if (pending && /^\s*$/.test(between) && pending.charset === charset) pending.bytes.push(bytes);
    else {
      flush();
      out += utf8(between);
      pending = { charset, bytes: [bytes] };
    }
    last = m.index + m[0].length;
  }
  flush();
  return out + utf8(value.slice(last));
}

/** Unencoded header text of a latin1 raw message may hold UTF-8 bytes (SMTPUTF8). */
function utf8(latin1: string): string {
  return Buffer.from(latin1, "latin1").toString("utf8");
}
