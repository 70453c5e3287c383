// `npm run dev` (scripts/dev.mjs): one command serves pages, API and assets from source with Vite
// in middleware mode, on the embedded database. An edit of a route reaches the open page by hot
// reload (no reload of the page), and an edit of a core file is in the next answer — no restart,
// the same database (docs/product/operations.md#running). Runs `npm run dev` in a copy of the
// checkout, whose files the test edits.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useBrowser } from "./fixtures/browser.ts";
import { freePort, snapshot, SOURCES, startShop, stopShop, waitUntilHealthy, type ShopProcess } from "./fixtures/server.ts";

const session = useBrowser();
let checkout: ReturnType<typeof snapshot>;
let shop: ShopProcess;
let base = "";

beforeAll(async () => {
  checkout = snapshot(SOURCES, "shop-dev-");
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  shop = startShop(
    checkout.dir,
    "scripts/dev.mjs",
    { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: base, DATABASE_URL: "memory://", LOG_LEVEL: "warn", NODE_ENV: "" },
    "dev",
  );
  await waitUntilHealthy(base, shop);
});

afterAll(async () => {
  try {
    if (shop) await stopShop(shop);
  } finally {
    checkout?.remove();
  }
});

/** Replaces `from` (which must be there) in a file of the copy. */
function edit(file: string, from: string, to: string) {
  const full = path.join(checkout.dir, file);
  const text = readFileSync(full, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}: update this test`);
  writeFileSync(full, text.replace(from, to));
}

/** Polls until `check` holds, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not within ${ms / 1000} s: ${what}`);
}

describe("npm run dev", () => {
  test("serves pages, the API and assets from one port, with no build", async () => {
    const page = await fetch(`${base}/en/`, { headers: { cookie: "locale=en" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="en"');
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    const css = await fetch(base + stylesheet, { headers: { accept: "text/css,*/*;q=0.1" } });
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    const data = await fetch(`${base}/v2/web/frontend/data`);
    expect(data.status).toBe(200);
    expect((await data.json()).status).toBe(true);
    expect((await fetch(`${base}/favicon.svg`)).status).toBe(200);
  });

  test("an edit of a core file is in the next answer, without a restart, on the same database", async () => {
    const email = `dev-${Date.now().toString(36)}@example.com`;
    const registered = await fetch(`${base}/v2/web/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "Quartz-Lantern-42" }),
    });
    const { token } = await registered.json();
    expect(token).toBeTruthy();
    const unknownCall = () => fetch(`${base}/v2/web/no-such-call`);
    expect((await unknownCall()).status).toBe(404);

    edit("core/shared/errors.ts", "not_found: 404,", "not_found: 410,");
    await eventually(async () => (await unknownCall()).status === 410, "the edited status of not_found answers");
    // The database stayed open across the reload: the session is still there.
    const me = await fetch(`${base}/v2/web/user/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    edit("core/shared/errors.ts", "not_found: 410,", "not_found: 404,");
    await eventually(async () => (await unknownCall()).status === 404, "the status of not_found is 404 again");
  });

  test("an edit of a route shows in the open page by hot reload, without reloading it", async () => {
    // A page that hydrates: the referral page (the sign-in pages run no script, docs/decisions/0009-forms-on-the-server.md).
    const registered = await fetch(`${base}/v2/web/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `dev-hmr-${Date.now().toString(36)}@example.com`, password: "Quartz-Lantern-42" }),
    });
    const { token } = (await registered.json()) as { token: string };
    const page = await session.newPage({ locale: "en-US" });
    await page.context().addCookies([{ name: "access_token", value: token, url: base }]);
    await page.goto(`${base}/en/dota2/profile/referral`);
    // Hydrated, and the dependencies Vite optimises on first sight are in (that may reload once).
    await page.waitForFunction(() => "__reactRouterRouteModules" in window, undefined, { timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => Object.assign(window, { keptAcrossTheEdit: true }));
    const main = page.locator("section.commerce");
    await expect.poll(() => main.getAttribute("data-edited")).toBeNull();

    edit(
      "app/routes/profile/referral.tsx",
      '<section aria-labelledby="referral-title" className="commerce">',
      '<section aria-labelledby="referral-title" className="commerce" data-edited="yes">',
    );
    await expect.poll(() => main.getAttribute("data-edited"), { timeout: 30_000 }).toBe("yes");
    // The same document: a hot update, not a reload.
    expect(await page.evaluate(() => (window as unknown as { keptAcrossTheEdit?: boolean }).keptAcrossTheEdit)).toBe(true);
    // And the server renders the edited route too.
    const rendered = await fetch(`${base}/en/dota2/profile/referral`, { headers: { cookie: `access_token=${token}` } });
    expect(await rendered.text()).toContain('data-edited="yes"');
  });
});
