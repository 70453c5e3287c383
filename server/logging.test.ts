// The process logger keeps values out of the log (issue 7, point 5): SQL parameters, PostgreSQL's
// quoted values and failing rows, and query strings of URLs, in errors and in url/path fields.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, requestScope, scrubText } from "./logging.ts";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

describe("the log", () => {
  it("drops a failed query's params, PostgreSQL's detail and quoted values from a logged error", () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "4111 1111 1111 1111"'), {
      code: "22P02",
      detail: "Failing row contains (7, eve@example.com, $argon2id$v=19$secret).",
    });
    const error = Object.assign(new Error('Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: eve@example.com,$argon2id$v=19$secret'), {
      query: 'insert into "users" ("email", "password_hash") values ($1, $2)',
      params: ["eve@example.com", "$argon2id$v=19$secret"],
      cause,
    });
    const { logger, lines } = capture();
    logger.error({ err: error }, "unhandled error");
    const line = lines.join("");
    expect(line).toContain('insert into \\"users\\"');
    expect(line).toContain("invalid input syntax for type integer");
    expect(line).not.toContain("eve@example.com");
    expect(line).not.toContain("argon2id");
    expect(line).not.toContain("4111");
  });

  it("cuts the query string of URLs in errors and in url and path fields", () => {
    const { logger, lines } = capture();
    logger.error({ err: new Error("GET https://api-m.paypal.com/v2/checkout/orders?token=SECRET1 failed") }, "provider");
    logger.info({ url: "http://localhost/en/auth/restore-password?email=a%40b.c&code=123456", path: "/auth/sso?ticket=SECRET2" }, "request");
    const text = lines.join("");
    for (const secret of ["SECRET1", "SECRET2", "123456", "a%40b.c"]) expect(text).not.toContain(secret);
    expect(text).toContain("https://api-m.paypal.com/v2/checkout/orders?[redacted]");
    expect(scrubText("/en/auth?redirectTo=/x and more")).toBe("/en/auth?[redacted] and more");
  });
});

describe("request ids", () => {
  it("every line written while a request runs carries its id; lines outside a request carry none", async () => {
    const { logger, lines } = capture();
    await requestScope.run({ reqId: "req-42" }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.warn({ userId: 7 }, "deep inside a service");
    });
    logger.info("at start");
    expect(JSON.parse(lines[0]!)).toMatchObject({ reqId: "req-42", userId: 7, msg: "deep inside a service" });
    expect(JSON.parse(lines[1]!)).not.toHaveProperty("reqId");
  });
});
