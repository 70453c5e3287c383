// /dev/mail, outside production only: the latest mails of the outbox, for developers working
// without an SMTP server (docs/product/operations.md#development-conveniences). Plain HTML, no scripts.
import { Hono } from "hono";
import { escapeHtml } from "../core/mail/index.ts";
import type { HonoEnv } from "./context.ts";

export function devMailRoutes() {
  const app = new Hono<HonoEnv>();
  app.get("/dev/mail", async (c) => {
    const mails = await c.get("services").mailer.listOutbox(50);
    const rows = mails
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p><b>To:</b> ${escapeHtml(m.to)} · <b>Status:</b> ${escapeHtml(m.status)} · <b>Language:</b> ${escapeHtml(m.locale)} · ${escapeHtml(m.createdAt.toISOString())}</p>
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
      )
      .join("\n<hr>\n");
    c.header("Cache-Control", "no-store");
    return c.html(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Outbox · NOVA (development)</title></head><body><h1>Outbox (development only)</h1><p>${mails.length} latest mails, newest first.</p>${rows || "<p>No mail yet.</p>"}</body></html>`,
    );
  });
  return app;
}
