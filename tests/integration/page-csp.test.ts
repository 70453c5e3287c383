// The page CSP allows the inline scripts the app itself emits, by hash, and nothing else that ends
// up inline in the HTML (issue 7, docs/decisions/0002). To get a foreign inline script into a real
// render, one route of the real build — a page that hydrates, the referral page — is wrapped with
// a component that adds one, as content that slipped through would.
import { createHash } from "node:crypto";
import path from "node:path";
import { createElement, Fragment, type ComponentType } from "react";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { BUILD_DIR, loadBuild } from "../../server/main.ts";
import { startTestApp, type TestApp } from "../kit/app.ts";
import { PAGE_SCRIPTS } from "../../server/http/page-scripts.ts";

const INJECTED = "document.title='injected'";
const ROUTE = "en/referral";
const HYDRATED = "/en/dota2/profile/referral";
const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
/** The inline scripts every page carries (the `tz` cookie, prefetch), allowed by their hashes. */
const EVERY_PAGE = Object.values(PAGE_SCRIPTS).map(sha256);

let shop: TestApp & { stop(): Promise<void> };
let app: ReturnType<typeof createApp>;
let cookie = "";

/** The real build, with the referral page also rendering an inline script the app never wrote. */
function withForeignScript(build: ServerBuild): ServerBuild {
  const route = build.routes[ROUTE]!;
  const Page = route.module.default as ComponentType;
  const Injected = (props: object) => createElement(Fragment, null, createElement(Page, props), createElement("script", { dangerouslySetInnerHTML: { __html: INJECTED } }));
  return { ...build, routes: { ...build.routes, [ROUTE]: { ...route, module: { ...route.module, default: Injected } } } };
}

beforeAll(async () => {
  shop = await startTestApp({ pages: false });
  app = createApp(shop.services, { build: withForeignScript(await loadBuild()), clientDir: path.join(BUILD_DIR, "client") });
  const registered = await shop.request("/v2/web/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "csp@example.com", password: "Quartz-Lantern-42" }),
  });
  cookie = `access_token=${((await registered.json()) as { token: string }).token}`;
});
afterAll(async () => {
  await shop?.stop();
});

const get = (p: string, headers: Record<string, string> = {}) => Promise.resolve(app.request(`${shop.services.settings.PUBLIC_URL}${p}`, { headers }));
const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attributes: m[1]!, body: m[2]! }));
const scriptSrc = (csp: string) => /script-src ([^;]+)/.exec(csp)![1]!.split(" ");

describe("the page CSP", () => {
  it("does not allow an inline script the app did not emit, and allows each one it did", async () => {
    const res = await get(HYDRATED, { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    const scripts = inlineScripts(html);
    const foreign = scripts.filter((s) => s.body === INJECTED);
    expect(foreign).toHaveLength(1);
    expect(scriptSrc(csp)).not.toContain(sha256(INJECTED));

    const own = scripts.filter((s) => s.body !== INJECTED);
    expect(own.length).toBeGreaterThan(0);
    for (const script of own) expect(scriptSrc(csp)).toContain(sha256(script.body));
    // Only 'self', the hashes of our scripts and no more.
    expect(scriptSrc(csp)).toEqual(["'self'", ...new Set(own.map((s) => sha256(s.body)))]);
  });

  it("leaves no marker (nonce attribute) in the HTML", async () => {
    const first = await (await get(HYDRATED, { cookie })).text();
    const second = await (await get(HYDRATED, { cookie })).text();
    expect(first).not.toMatch(/\snonce=/);
    expect(second).not.toMatch(/\snonce=/);
  });

  it("keeps a cached page's CSP right: the same bytes, the same hashes", async () => {
    const miss = await get("/en/dota2");
    const hit = await get("/en/dota2");
    expect(await hit.text()).toBe(await miss.text());
    expect(hit.headers.get("content-security-policy")).toBe(miss.headers.get("content-security-policy"));
  });
});

describe("the page CSP with reCAPTCHA on (RECAPTCHA_SCRIPT_URL, docs/product/accounts.md#recaptcha)", () => {
  const scriptUrl = "http://127.0.0.1:9/stand-in/recaptcha/api.js";
  let captcha: TestApp & { stop(): Promise<void> };
  let google: TestApp & { stop(): Promise<void> };
  beforeAll(async () => {
    captcha = await startTestApp({ env: { RECAPTCHA_SITE_KEY: "site-key-1", RECAPTCHA_SCRIPT_URL: scriptUrl } });
    google = await startTestApp({ env: { RECAPTCHA_SITE_KEY: "site-key-2" } });
  });
  afterAll(async () => {
    await captcha?.stop();
    await google?.stop();
  });

  const directive = (csp: string, name: string) => new RegExp(`${name} ([^;]+)`).exec(csp)![1]!.split(" ");

  it.each(["/en/auth", "/auth/register", "/es/auth/restore-password"])("allows the widget's script and frames on %s, from the setting's folder", async (page) => {
    const res = await captcha.request(page);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(directive(csp, "script-src")).toContain("http://127.0.0.1:9/stand-in/recaptcha/");
    expect(directive(csp, "frame-src")).toEqual(["http://127.0.0.1:9/stand-in/recaptcha/"]);
    expect(csp).not.toContain("google");
    // The page runs none of our scripts (docs/decisions/0009-forms-on-the-server.md): it loads the
    // widget's script itself, deferred, in the page's language, and Google's script renders into
    // the placeholder inside the form.
    const html = await res.text();
    expect(directive(csp, "script-src")).toEqual(["'self'", ...EVERY_PAGE, "http://127.0.0.1:9/stand-in/recaptcha/"]);
    expect(html).toMatch(/<script src="http:\/\/127\.0\.0\.1:9\/stand-in\/recaptcha\/api\.js\?hl=[a-z]{2}" defer=""><\/script>/);
    expect(html).toMatch(/<form[^>]*>(?:(?!<\/form>)[\s\S])*<div class="g-recaptcha" data-sitekey="site-key-1" data-theme="dark"><\/div>/);
    // Inline: only the two scripts of every page.
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toEqual(Object.values(PAGE_SCRIPTS));
  });

  it("allows Google's script and frames by default", async () => {
    const csp = (await google.request("/en/auth")).headers.get("content-security-policy")!;
    expect(directive(csp, "script-src")).toEqual(expect.arrayContaining(["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]));
    expect(directive(csp, "frame-src")).toEqual(["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"]);
  });

  it("keeps the widget's sources off pages that run no script (the storefront)", async () => {
    const csp = (await captcha.request("/en/dota2")).headers.get("content-security-policy")!;
    expect(directive(csp, "script-src")).toEqual(["'self'", ...EVERY_PAGE]);
    expect(directive(csp, "frame-src")).toEqual(["'none'"]);
  });
});
