// Route rules (docs/product/routes.md#route-rules): consulted by every page request before anything
// else — the root language redirect and the page-cache fast path included —, matched exactly or by
// prefix, the query kept unless the target has one, an absolute target leaving the site, held in
// memory and dropped on change; chains and malformed rules refused.
import { afterEach, describe, expect, it } from "vitest";
import { routeRules } from "../../db/schema/index.ts";
import { isDomainError } from "../../core/shared/errors.ts";
import type { RouteRuleInput } from "../../core/route-rules/index.ts";
import { TEST_ORIGIN, useListening, useTestApp } from "../kit/app.ts";

const shop = useTestApp();

async function rule(input: RouteRuleInput) {
  return shop.services.routeRules.add(input);
}

afterEach(async () => {
  for (const r of await shop.services.routeRules.list()) await shop.services.routeRules.remove(r.id);
});

const get = (path: string, headers: Record<string, string> = {}) => shop.request(path, { headers: { cookie: "locale=ru", ...headers } });

describe("a matching rule redirects the page request", () => {
  it("matches the full path exactly, locale prefix included, and keeps the query", async () => {
    await rule({ from: "/en/old-offer", to: "/en/minecraft" });
    const res = await get("/en/old-offer?utm=mail&x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/minecraft?utm=mail&x=1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    // Another language's path is another path.
    expect((await get("/old-offer")).status).toBe(404);
    expect((await get("/en/old-offer/more")).status).toBe(404);
  });

  it("uses the target's own query instead of the request's, and its status (301)", async () => {
    await rule({ from: "/en/promo", to: "/en/dota2?from=promo", status: 301 });
    const res = await get("/en/promo?utm=x");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/en/dota2?from=promo");
  });

  it("matches by prefix with a trailing *, the exact rule and then the longer prefix winning", async () => {
    await rule({ from: "/en/games/*", to: "/en/presentation" });
    await rule({ from: "/en/games/cs/*", to: "/en/cs2" });
    await rule({ from: "/en/games/cs/go", to: "/en/dota2" });
    expect((await get("/en/games/anything")).headers.get("location")).toBe("/en/presentation");
    expect((await get("/en/games/cs/2")).headers.get("location")).toBe("/en/cs2");
    expect((await get("/en/games/cs/go")).headers.get("location")).toBe("/en/dota2");
    // A prefix is a plain string prefix: "/en/games/" itself matches the first rule.
    expect((await get("/en/games/")).headers.get("location")).toBe("/en/presentation");
  });

  it("leaves the site for an absolute target, the query kept", async () => {
    await rule({ from: "/en/discord", to: "https://discord.example.org/invite/nova" });
    const res = await get("/en/discord?ref=site");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://discord.example.org/invite/nova?ref=site");
  });

  it("comes before the root language redirect and the referral cookie", async () => {
    await rule({ from: "/", to: "/en/presentation" });
    const res = await shop.request("/?r=FRIEND", { headers: { "accept-language": "es" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/presentation?r=FRIEND");
  });

  it("redirects existing pages too, for signed-in visitors and crawlers alike", async () => {
    await rule({ from: "/cs2", to: "/dota2" });
    expect((await get("/cs2", { "user-agent": "Googlebot/2.1" })).headers.get("location")).toBe("/dota2");
    expect((await get("/cs2", { cookie: "locale=ru; access_token=whatever" })).headers.get("location")).toBe("/dota2");
  });

  it("answers a client-side navigation (.data) with React Router's redirect, loading the target as a document", async () => {
    await rule({ from: "/en/old-offer", to: "https://example.org/new" });
    await rule({ from: "/en", to: "/en/presentation" });
    const data = await get("/en/old-offer.data?_routes=en%2Fgame&q=1");
    expect(data.status).toBe(204);
    expect(data.headers.get("x-remix-redirect")).toBe("https://example.org/new?q=1");
    expect(data.headers.get("x-remix-status")).toBe("302");
    expect(data.headers.get("x-remix-reload-document")).toBe("true");
    // The index of a language is fetched as "/en.data".
    expect((await get("/en.data")).headers.get("x-remix-redirect")).toBe("/en/presentation");
  });

  it("does not touch the API, assets or form posts", async () => {
    await rule({ from: "/v2/*", to: "/en" });
    await rule({ from: "/en/auth", to: "/en" });
    expect((await shop.request("/v2/web/frontend/data")).status).toBe(200);
    const post = await shop.request("/en/auth", { method: "POST", headers: { origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: "intent=x" });
    expect(post.status).not.toBe(302);
  });
});

describe("the table in memory", () => {
  it("is read once and used until a change drops it", async () => {
    expect((await get("/en/behind")).status).toBe(404); // the table is read now
    // A row written behind the core's back (as another process would) is not seen…
    await shop.services.db.insert(routeRules).values({ from: "/en/behind", to: "/en/cs2", status: 302 });
    expect((await get("/en/behind")).status).toBe(404);
    // …until the table is dropped: the next page request reads it again.
    shop.services.routeRules.changed();
    expect(shop.services.routeRules.cached()).toBeUndefined();
    const res = await get("/en/behind");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/cs2");
    expect(shop.services.routeRules.cached()?.size).toBe(1);
  });

  it("drops it when a rule is added or removed through the core", async () => {
    const added = await rule({ from: "/en/soon", to: "/en/dota2" });
    expect((await get("/en/soon")).status).toBe(302);
    expect(await shop.services.routeRules.remove(added.id)).toBe(true);
    expect((await get("/en/soon")).status).toBe(404);
    expect(await shop.services.routeRules.remove(added.id)).toBe(false);
  });
});

describe("the page-cache fast path", () => {
  const listening = useListening(shop);

  it("stops serving a cached page as soon as a rule redirects it", async () => {
    const first = await fetch(`${listening.url}/en/minecraft`);
    expect(first.status).toBe(200);
    const hit = await fetch(`${listening.url}/en/minecraft`, { headers: { "x-request-id": "before-rule" } });
    expect(hit.status).toBe(200);
    await rule({ from: "/en/minecraft", to: "https://example.org/mc" });
    const moved = await fetch(`${listening.url}/en/minecraft`, { redirect: "manual" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("https://example.org/mc");
  });

  it("consults a rule added behind the core's back once the table is dropped", async () => {
    await fetch(`${listening.url}/en/cs2`);
    await shop.services.db.insert(routeRules).values({ from: "/en/cs2", to: "/en/dota2", status: 301 });
    expect((await fetch(`${listening.url}/en/cs2`, { redirect: "manual" })).status).toBe(200);
    shop.services.routeRules.changed();
    const moved = await fetch(`${listening.url}/en/cs2`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/en/dota2");
  });
});

describe("rules that are refused", () => {
  async function refusal(input: RouteRuleInput): Promise<[string, string | undefined]> {
    try {
      await rule(input);
    } catch (error) {
      if (isDomainError(error, "validation_failed", "conflict")) return [error.code, Object.values(error.details.fields ?? {})[0]];
      throw error;
    }
    throw new Error(`accepted: ${JSON.stringify(input)}`);
  }

  it("refuses chains, whichever rule comes first", async () => {
    await rule({ from: "/en/a", to: "/en/b" });
    // Its target is redirected by a rule…
    expect(await refusal({ from: "/en/c", to: "/en/a?x=1" })).toEqual(["validation_failed", "validation.route_rule_chain"]);
    // …or it would redirect an existing rule's target (also by prefix, or through our own origin).
    expect(await refusal({ from: "/en/b", to: "/en/d" })).toEqual(["validation_failed", "validation.route_rule_chain"]);
    expect(await refusal({ from: "/en/*", to: "https://example.org/" })).toEqual(["validation_failed", "validation.route_rule_chain"]);
    expect(await refusal({ from: "/en/e", to: `${TEST_ORIGIN}/en/a` })).toEqual(["validation_failed", "validation.route_rule_chain"]);
    // A rule whose target it matches itself.
    expect(await refusal({ from: "/es/*", to: "/es/x" })).toEqual(["validation_failed", "validation.route_rule_chain"]);
    expect((await shop.services.routeRules.list()).map((r) => r.from)).toEqual(["/en/a"]);
  });

  it("refuses what is not a path or a target, and a second rule for one path", async () => {
    expect(await refusal({ from: "en/a", to: "/en" })).toEqual(["validation_failed", "validation.route_rule_from"]);
    expect(await refusal({ from: "/en/a?x=1", to: "/en" })).toEqual(["validation_failed", "validation.route_rule_from"]);
    expect(await refusal({ from: "/en/*/x", to: "/en" })).toEqual(["validation_failed", "validation.route_rule_from"]);
    expect(await refusal({ from: "/en/a b", to: "/en" })).toEqual(["validation_failed", "validation.route_rule_from"]);
    for (const to of ["//evil.example", "/\\evil.example", "javascript:alert(1)", "ftp://example.org/x", "en", "https://exa mple.org"]) {
      expect(await refusal({ from: "/en/a", to }), to).toEqual(["validation_failed", "validation.route_rule_to"]);
    }
    await rule({ from: "/en/a", to: "/en" });
    expect(await refusal({ from: "/en/a", to: "/en/cs2" })).toEqual(["conflict", "validation.route_rule_taken"]);
  });
});
