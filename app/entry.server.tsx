// Renders a whole document before answering: the page CSP allows inline scripts by their hashes,
// so the HTML must be complete first. Pages have no Suspense boundaries, so nothing is lost.
// A page that does not hydrate (a route of its chain says `hydrate: false`, app/root.tsx) is
// rendered by `renderToString`, with no stream at all (issue 13, point 4): it loads no script, so
// React Router's data stream for hydration (`serverHandoffStream`, the one Suspense boundary of
// ServerRouter) has no reader and is left out of the tree — the same tree `npm run bench` times
// as (b). The stream itself is left alone, not cancelled: React Router has already started it,
// and it finishes on its own (one chunk, then it closes and clears its timer); cancelling made its
// encoder throw on its next write and left its 5-second timeout running, which then aborted with
// a new Error of its own — three errors and a timer per page (decision 0046). A hydrating page
// streams as before, and waits for all of it.
//
// Only the inline scripts this render emitted are hashed (issue 7), never whatever else ends up
// inline in the HTML (say, through content). Each render draws a random marker and hands it to
// React Router and React as the `nonce` of their scripts; a script carrying that exact marker is
// ours. The marker is then removed from the HTML: the hash of a script's content does not change,
// and a cached page (the same bytes for everyone) keeps a strict CSP (docs/decisions/0002). An
// inline script of our own must carry the marker too: React Router gives it to its components
// through the framework context, so one of ours takes it from there.
import { createHash, randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { chainHydrates } from "./root.tsx";
import { ServerRouter } from "react-router";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { I18nProvider } from "./lib/i18n.tsx";
import { PAGE_SCRIPTS } from "../server/http/page-scripts.ts";

export const streamTimeout = 5_000;

/** The hashes of the scripts every page carries (server/http/page-scripts.ts), made once. */
const KNOWN_HASHES = new Map(Object.values(PAGE_SCRIPTS).map((script) => [script, sha256(script)]));

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64");
}

/**
 * The SHA-256 hashes of the inline scripts that carry this render's marker, and the HTML with the
 * marker removed from every element (React Router also puts it on its `<link>`s). A script without
 * the marker gets no hash, so the page's CSP does not run it. A plain scan from each `<script` to
 * the first `</script>` after it (where the browser ends it too), and the scripts every page
 * carries hashed once for all pages: a fresh landing spent 2 % of its CPU here with a regular
 * expression over the whole page and a hash per script (issue 13, point 4).
 */
export function ownInlineScripts(html: string, marker: string): { html: string; hashes: string[] } {
  const attribute = ` nonce="${marker}"`;
  const hashes = new Set<string>();
  for (let open = html.indexOf("<script"); open !== -1; open = html.indexOf("<script", open + 1)) {
    const tagEnd = html.indexOf(">", open);
    const close = tagEnd === -1 ? -1 : html.indexOf("</script>", tagEnd);
    if (close === -1) break;
    const attributes = html.slice(open + "<script".length, tagEnd);
    if (attributes.includes(attribute) && !/\ssrc=/.test(attributes)) {
      const body = html.slice(tagEnd + 1, close);
      hashes.add(KNOWN_HASHES.get(body) ?? sha256(body));
    }
    open = close;
  }
  return { html: html.replaceAll(attribute, ""), hashes: [...hashes] };
}

/**
 * Whether the HTML loads a script from `url` (ignoring its query): a page that renders the
 * reCAPTCHA widget without hydrating loads Google's script itself, and its CSP must allow it.
 */
export function loadsScript(html: string, url: string): boolean {
  const wanted = url.split("?")[0]!;
  for (const [, src = ""] of html.matchAll(/<script\b[^>]*\ssrc="([^"]*)"/g)) {
    if (src.replaceAll("&amp;", "&").split("?")[0] === wanted) return true;
  }
  return false;
}

/** Whether the page hydrates, by the rule app/root.tsx's Layout follows for its scripts. */
function pageHydrates(routerContext: EntryContext): boolean {
  return chainHydrates(routerContext.staticHandlerContext.matches.map((m) => routerContext.routeModules[m.route.id]?.handle));
}

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: AppLoadContext) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { locale, services } = loadContext;
  const marker = randomBytes(18).toString("base64url");
  const answer = (rendered: string) => {
    const { html, hashes } = ownInlineScripts(rendered, marker);
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.set("X-Script-Hashes", hashes.join(" "));
    const { RECAPTCHA_SITE_KEY, RECAPTCHA_SCRIPT_URL } = services.settings;
    if (RECAPTCHA_SITE_KEY && loadsScript(html, RECAPTCHA_SCRIPT_URL)) responseHeaders.set("X-Recaptcha-Script", "1");
    return new Response(html, { headers: responseHeaders, status: responseStatusCode });
  };
  const document = (context: EntryContext) => (
    <I18nProvider locale={locale} messages={services.catalogs.messages(locale)}>
      <ServerRouter context={context} url={request.url} nonce={marker} />
    </I18nProvider>
  );
  if (!pageHydrates(routerContext)) {
    // Nothing will read the hydration data: the tree leaves it out, and its stream runs to its end unread.
    return answer("<!DOCTYPE html>" + renderToString(document({ ...routerContext, serverHandoffStream: undefined })));
  }
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => resolve(answer(Buffer.concat(chunks).toString("utf8"))));
    const { pipe, abort } = renderToPipeableStream(document(routerContext), {
      nonce: marker,
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
    });
    const timer = setTimeout(() => abort(), streamTimeout);
  });
}
