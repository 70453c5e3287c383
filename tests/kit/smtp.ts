// A loopback SMTP server for tests: accepts every mail on 127.0.0.1 (plain text, AUTH optional and
// accepted with any password), keeps it, and reads it with mailparser as a mail client would:
// headers with encoded words, multipart bodies, quoted-printable and base64, charsets.
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** The user name given with AUTH, if any. */
  authUser?: string;
  subject: string;
  /** The From and To headers as text (`"Name" <address>`), decoded. */
  from: string;
  to: string;
  /** The text/plain and text/html bodies, decoded. */
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
        readMail(Buffer.concat(chunks)).then(
          (read) => {
            const mail: ReceivedMail = {
              ...read,
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              authUser: typeof session.user === "string" && session.user ? session.user : undefined,
            };
            messages.push(mail);
            for (const waiter of [...waiters]) waiter(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
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

/** What a user would read of a raw message: subject, From, To, and the text and HTML bodies. */
async function readMail(raw: Buffer): Promise<Omit<ReceivedMail, "envelope" | "authUser">> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  const addresses = (value: AddressObject | AddressObject[] | undefined) =>
    [value ?? []]
      .flat()
      .map((a) => a.text)
      .join(", ");
  return {
    subject: parsed.subject ?? "",
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    text: parsed.text,
    html: parsed.html === false ? undefined : parsed.html,
  };
}
