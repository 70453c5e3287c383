// Renders a whole document before answering: the page CSP allows inline scripts by their hashes,
// so the HTML must be complete first. Pages have no Suspense boundaries, so nothing is lost.
import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { I18nProvider } from "./lib/i18n.tsx";

export const streamTimeout = 5_000;

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(createHash("sha256").update(match[1] ?? "").digest("base64"));
  }
  return [...hashes];
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { locale, services } = loadContext;
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => {
      const html = Buffer.concat(chunks).toString("utf8");
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set("X-Script-Hashes", inlineScriptHashes(html).join(" "));
      resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <I18nProvider locale={locale} messages={services.catalogs.messages(locale)}>
        <ServerRouter context={routerContext} url={request.url} />
      </I18nProvider>,
      {
        onAllReady() {
          clearTimeout(timer);
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          services.logger.error({ err: error, reqId: loadContext.requestId }, "render error");
        },
      },
    );
    const timer = setTimeout(() => abort(), streamTimeout);
  });
}
