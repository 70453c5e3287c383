// The back office's delivery pages (docs/product/delivery.md#operator-calls) as a browser without JavaScript uses them:
// owners only (guests to sign in, buyers and support 403); a build uploaded by the page's multipart form, past the
// 64 KiB body limit, streamed to STORAGE_DIR and audited with its reason, refused without a reason with nothing
// left behind; a webhook endpoint added (its secret shown once), listed with its delivery log, and removed.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { builds } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { pageText } from "../kit/html.ts";
import { GAMES, registerUser, useShop } from "../kit/shop.ts";
import { auditEntries, makeOperator } from "./admin-kit.ts";

const STORAGE = mkdtempSync(path.join(os.tmpdir(), "nova-admin-builds-"));
const clock = manualClock(new Date("2026-07-01T09:00:00.000Z"));
const shop = useShop({ pages: true, clock, env: { STORAGE_DIR: STORAGE, BUILD_MAX_BYTES: "500000" } });
afterAll(() => rmSync(STORAGE, { recursive: true, force: true }));

const BUILDS = "/en/admin/delivery/builds";
const WEBHOOKS = "/en/admin/delivery/webhooks";

async function page(token: string | undefined, url: string) {
  const res = await shop.request(url, { headers: token ? { cookie: `access_token=${token}` } : {}, redirect: "manual" });
  return { status: res.status, text: pageText(await res.text()), location: res.headers.get("location") };
}

async function post(token: string, url: string, body: FormData | URLSearchParams) {
  const headers: Record<string, string> = { origin: shop.services.settings.PUBLIC_URL, "sec-fetch-site": "same-origin", cookie: `access_token=${token}` };
  if (body instanceof URLSearchParams) headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await shop.request(url, { method: "POST", headers, body, redirect: "manual" });
  return { status: res.status, text: pageText(await res.text()), location: res.headers.get("location") };
}

describe("the builds page", () => {
  it("is an owner's: a guest goes to sign in, a buyer and support get 403", async () => {
    const guest = await page(undefined, BUILDS);
    expect(guest.status).toBe(302);
    expect(guest.location).toContain("/en/auth?redirectTo=");
    const buyer = await registerUser(shop);
    expect((await page(buyer.token, BUILDS)).status).toBe(403);
    const support = await makeOperator(shop, clock, "support");
    expect((await page(support.token, BUILDS)).status).toBe(403);
    expect((await page(support.token, WEBHOOKS)).status).toBe(403);
  });

  it("uploads a build past the body limit, lists it with its checksum, and audits the reason", async () => {
    const owner = await makeOperator(shop, clock, "owner");
    await shop.services.db.delete(builds).where(eq(builds.cheatId, GAMES.cs2.id));
    const empty = await page(owner.token, `${BUILDS}?game=cs2`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("No build of this game yet.");

    // Without a reason: refused on the form, nothing kept.
    const file = randomBytes(200_000);
    const form = (reason?: string) => {
      const data = new FormData();
      data.set("version", "2.4.0");
      data.set("notes", "Quicker start.");
      if (reason !== undefined) data.set("reason", reason);
      data.set("file", new Blob([file]), "nova-cs2.zip");
      return data;
    };
    const refused = await post(owner.token, `${BUILDS}?game=cs2`, form());
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("reason");
    expect(await shop.services.builds.list(GAMES.cs2.id)).toEqual([]);
    expect(readdirSync(path.join(STORAGE, "tmp"))).toEqual([]);

    const uploaded = await post(owner.token, `${BUILDS}?game=cs2`, form("release 2.4"));
    expect(uploaded.status, uploaded.text).toBe(302);
    expect(uploaded.location).toBe(`${BUILDS}?game=cs2&uploaded=2.4.0`);
    const [build] = await shop.services.builds.list(GAMES.cs2.id);
    expect(build).toMatchObject({ version: "2.4.0", size: file.length, notes: "Quicker start.", fileName: "nova-cs2.zip" });
    expect((await auditEntries(shop, "build.upload"))[0]).toMatchObject({ actorId: owner.id, targetId: String(build!.id), reason: "release 2.4" });

    const listed = await page(owner.token, uploaded.location!);
    expect(listed.text).toContain("Build 2.4.0 is uploaded and is now the latest.");
    expect(listed.text).toContain(build!.sha256);
  });
});

describe("the webhooks page", () => {
  it("adds an endpoint (secret shown once), shows it in Russian too, and removes it with a reason", async () => {
    const owner = await makeOperator(shop, clock, "owner");
    const missing = await post(owner.token, WEBHOOKS, new URLSearchParams({ intent: "add", url: "http://127.0.0.1:9/hook", reason: "crm" }));
    expect(missing.status).toBe(400);

    const fields = new URLSearchParams({ intent: "add", url: "http://127.0.0.1:9/hook", reason: "crm sync" });
    fields.append("events", "payment.completed");
    fields.append("events", "user.suspended");
    const added = await post(owner.token, WEBHOOKS, fields);
    expect(added.status, added.text).toBe(200);
    const secret = /whsec_[A-Za-z0-9_-]{32}/.exec(added.text)?.[0];
    expect(secret).toBeDefined();
    const [endpoint] = await shop.services.webhooks.list();
    expect(endpoint).toMatchObject({ url: "http://127.0.0.1:9/hook", events: ["payment.completed", "user.suspended"] });
    expect((await auditEntries(shop, "webhook.add"))[0]).toMatchObject({ actorId: owner.id, reason: "crm sync" });

    const listed = await page(owner.token, WEBHOOKS);
    expect(listed.text).toContain("http://127.0.0.1:9/hook");
    expect(listed.text).not.toContain(secret);
    expect((await page(owner.token, "/admin/delivery/webhooks")).text).toContain("Адреса вебхуков");

    const removed = await post(owner.token, WEBHOOKS, new URLSearchParams({ intent: "remove", endpoint_id: String(endpoint!.id), reason: "crm gone" }));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.text).toContain("Endpoint removed");
    expect(await shop.services.webhooks.list()).toEqual([]);
    expect((await auditEntries(shop, "webhook.remove"))[0]).toMatchObject({ actorId: owner.id, reason: "crm gone" });
  });
});
