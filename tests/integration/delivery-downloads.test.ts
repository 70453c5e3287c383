// Builds and downloads (docs/product/delivery.md#downloads, issue 11) on a manual clock: an owner
// uploads a build (multipart, streamed to STORAGE_DIR, past the 64 KiB body limit, refused above
// BUILD_MAX_BYTES with nothing left behind); a buyer who holds a pass gets the latest build's
// version, size, checksum, notes and setup steps in their language and a link signed for them,
// valid 10 minutes; the link serves the file as an attachment with byte ranges; an expired or
// altered link, or a buyer without a pass, is refused.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builds } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { GAMES, PRODUCTS, registerUser, signIn, useShop, type User } from "../kit/shop.ts";
import { buyerWithPass, uploadBuild } from "./delivery-kit.ts";
import { useListening } from "../kit/app.ts";
import { auditEntries, makeOperator } from "./admin-kit.ts";
const STORAGE = mkdtempSync(path.join(os.tmpdir(), "nova-builds-"));
const MAX = 200_000;
const clock = manualClock(new Date("2026-07-01T09:00:00.000Z"));
const shop = useShop({ clock, env: { STORAGE_DIR: STORAGE, BUILD_MAX_BYTES: String(MAX), DOWNLOAD_LINK_SECONDS: "600" } });
const listening = useListening(shop);
afterAll(() => rmSync(STORAGE, { recursive: true, force: true }));

const MINUTE = 60_000;
/** More than BODY_LIMIT_BYTES (64 KiB): only the upload's own limit applies to it. */
const FILE = randomBytes(150_000);
const SHA = createHash("sha256").update(FILE).digest("hex");
let owner: User;

const downloads = (user: User, cheatId: number = GAMES.minecraft.id, lang = "en") => shop.call("GET", `/v2/web/user/downloads?cheat_id=${cheatId}`, { token: user.token, lang });

async function fetchFile(url: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(url, { headers, method });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("uploading a build", () => {
  beforeAll(async () => {
    // The development data's stand-in builds (server/main.ts) go: this file uploads its own.
    await shop.services.db.delete(builds);
  });

  it("is for owners behind the back office's guard: guests 401, buyers 403, an owner without 2FA 403, support 403", async () => {
    const file = { bytes: FILE, name: "nova-minecraft.zip" };
    expect((await uploadBuild(shop, undefined, GAMES.minecraft.id, { file, version: "1.0.0" })).status).toBe(401);
    const buyer = await registerUser(shop);
    expect((await uploadBuild(shop, buyer.token, GAMES.minecraft.id, { file, version: "1.0.0" })).body.code).toBe("forbidden");
    const unguarded = await makeOperator(shop, clock, "owner", { twoFa: false });
    const refused = await uploadBuild(shop, unguarded.token, GAMES.minecraft.id, { file, version: "1.0.0" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("two_fa_required");
    expect(refused.body.message).toMatch(/two-factor/i);
    const support = await makeOperator(shop, clock, "support");
    const notOwner = await uploadBuild(shop, support.token, GAMES.minecraft.id, { file, version: "1.0.0" });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.code).toBe("forbidden");
    expect((await shop.call("GET", `/v2/admin/games/${GAMES.minecraft.id}/builds`, { token: support.token })).status).toBe(403);
    expect(await shop.services.db.select().from(builds)).toEqual([]);
  });

  it("streams the file to STORAGE_DIR and answers its size and SHA-256", async () => {
    owner = await makeOperator(shop, clock, "owner");
    const reply = await uploadBuild(shop, owner.token, GAMES.minecraft.id, { file: { bytes: FILE, name: "nova-minecraft.zip" }, version: "1.0.0", notes: "First build.", reason: "release 1.0" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.build).toEqual({
      id: expect.any(Number),
      cheat_id: GAMES.minecraft.id,
      version: "1.0.0",
      notes: "First build.",
      file_name: "nova-minecraft.zip",
      size: FILE.length,
      sha256: SHA,
      created_at: clock.now().toISOString(),
    });
    const [row] = await shop.services.db.select().from(builds).where(eq(builds.id, reply.body.build.id));
    expect(readFileSync(path.join(STORAGE, row!.storagePath)).equals(FILE)).toBe(true);
    expect(readdirSync(path.join(STORAGE, "tmp"))).toEqual([]);
    // Audited: who, from where, why, what (docs/product/back-office.md#audit-log); the list has it.
    const [entry] = await auditEntries(shop, "build.upload");
    expect(entry).toMatchObject({
      actorId: owner.id,
      targetType: "build",
      targetId: String(reply.body.build.id),
      reason: "release 1.0",
      after: { version: "1.0.0", sha256: SHA, size: FILE.length },
    });
    const listed = await shop.call("GET", `/v2/admin/games/${GAMES.minecraft.id}/builds`, { token: owner.token });
    expect(listed.body.builds).toEqual([reply.body.build]);
  });

  it("refuses a file over BUILD_MAX_BYTES (413), a missing file or version (400) and an unknown game (404), leaving nothing behind", async () => {
    const before = (await shop.services.db.select().from(builds)).length;
    const big = await uploadBuild(shop, owner.token, GAMES.minecraft.id, { file: { bytes: randomBytes(MAX + 1), name: "big.zip" }, version: "9.9.9" });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("payload_too_large");
    const noFile = await uploadBuild(shop, owner.token, GAMES.minecraft.id, { version: "2.0.0" });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errors).toHaveProperty("file");
    const noVersion = await uploadBuild(shop, owner.token, GAMES.minecraft.id, { file: { bytes: FILE, name: "a.zip" } });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.errors).toHaveProperty("version");
    expect((await uploadBuild(shop, owner.token, 999, { file: { bytes: FILE, name: "a.zip" }, version: "1" })).status).toBe(404);
    const json = await shop.call("POST", `/v2/admin/games/${GAMES.minecraft.id}/builds`, { token: owner.token, json: { version: "1" } });
    expect(json.status).toBe(415);
    expect((await shop.services.db.select().from(builds)).length).toBe(before);
    expect(readdirSync(path.join(STORAGE, "tmp"))).toEqual([]);
  });
});

describe("downloading the latest build", () => {
  it("needs a pass of the game: 403 entitlement_inactive without one, 404 while the game has no build", async () => {
    const guest = await shop.call("GET", `/v2/web/user/downloads?cheat_id=${GAMES.minecraft.id}`);
    expect(guest.status).toBe(401);
    const stranger = await registerUser(shop);
    const refused = await downloads(stranger);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("entitlement_inactive");
    const cs2 = await buyerWithPass(shop, PRODUCTS.cs2.days1.id, GAMES.cs2.id);
    const none = await downloads(cs2, GAMES.cs2.id);
    expect(none.status).toBe(404);
  });

  it("answers the build, the checksum, the setup steps in the buyer's language and a signed link valid 10 minutes", async () => {
    const upload = await uploadBuild(shop, owner.token, GAMES.minecraft.id, { file: { bytes: FILE, name: "nova-minecraft-1.1.zip" }, version: "1.1.0", notes: "Faster start." });
    expect(upload.status).toBe(200);
    const buyer = await buyerWithPass(shop, PRODUCTS.minecraft.days7.id, GAMES.minecraft.id);
    const reply = await downloads(buyer, GAMES.minecraft.id, "ru");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      build: { version: "1.1.0", size: FILE.length, sha256: SHA, notes: "Faster start.", file_name: "nova-minecraft-1.1.zip" },
      expires_at: new Date(clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    expect(reply.body.steps).toHaveLength(4);
    expect(reply.body.steps[0]).toMatch(/SHA-256/);
    expect(reply.body.steps[0]).toMatch(/Скачайте/);
    expect(reply.body.url).toMatch(/^http:\/\/localhost\/v2\/download\/\d+\?u=\d+&e=\d+&s=[A-Za-z0-9_-]+$/);
  });

  it("serves the file as an attachment with byte ranges; the link dies after 10 minutes or when altered", async () => {
    const buyer = await buyerWithPass(shop, PRODUCTS.minecraft.days30.id, GAMES.minecraft.id);
    const { url } = (await downloads(buyer)).body as { url: string };
    const local = listening.url + new URL(url).pathname + new URL(url).search;

    const whole = await fetchFile(local);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(FILE)).toBe(true);
    expect(whole.headers.get("content-disposition")).toBe(`attachment; filename="nova-minecraft-1.1.zip"; filename*=UTF-8''nova-minecraft-1.1.zip`);
    expect(whole.headers.get("content-length")).toBe(String(FILE.length));
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("etag")).toBe(`"${SHA}"`);
    expect(whole.headers.get("cache-control")).toBe("no-store");

    const part = await fetchFile(local, { range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${FILE.length}`);
    expect(part.bytes.equals(FILE.subarray(1000, 2000))).toBe(true);
    const resumed = await fetchFile(local, { range: "bytes=149000-", "if-range": `"${SHA}"` });
    expect(resumed.status).toBe(206);
    expect(resumed.bytes.equals(FILE.subarray(149_000))).toBe(true);
    const tail = await fetchFile(local, { range: "bytes=-10" });
    expect(tail.bytes.equals(FILE.subarray(FILE.length - 10))).toBe(true);
    // The file changed since the client's first part: the whole file again.
    expect((await fetchFile(local, { range: "bytes=0-9", "if-range": '"another"' })).status).toBe(200);
    const beyond = await fetchFile(local, { range: `bytes=${FILE.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${FILE.length}`);
    const head = await fetchFile(local, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(FILE.length));
    expect(head.bytes.length).toBe(0);

    // Altered: another buyer, another build, another end, or another signature.
    const link = new URL(local);
    const altered = (name: string, value: string) => {
      const copy = new URL(link);
      copy.searchParams.set(name, value);
      return copy.toString();
    };
    for (const other of [altered("u", String(buyer.id + 1)), altered("e", String(Number(link.searchParams.get("e")) + 600)), altered("s", "A".repeat(43))]) {
      const refused = await fetchFile(other);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.bytes.toString()).code).toBe("download_link_invalid");
    }
    expect((await fetchFile(local.replace(/\/download\/\d+/, "/download/999999"))).status).toBe(403);

    // Expired: a second download after 10 minutes is refused, in the caller's language.
    clock.advance(10 * MINUTE);
    const late = await fetch(local, { headers: { "accept-language": "ru" } });
    expect(late.status).toBe(403);
    expect(await late.json()).toMatchObject({ status: false, code: "download_link_invalid", message: expect.stringMatching(/устарела/) });
    // A fresh link works again.
    await signIn(shop, buyer);
    const fresh = (await downloads(buyer)).body.url as string;
    expect((await fetchFile(listening.url + new URL(fresh).pathname + new URL(fresh).search, { range: "bytes=0-0" })).status).toBe(206);
  });

  it("the profile's button: a new signed link for every click, by redirect", async () => {
    const buyer = await buyerWithPass(shop, PRODUCTS.minecraft.days1.id, GAMES.minecraft.id);
    const res = await shop.request(`/v2/web/user/downloads/latest?cheat_id=${GAMES.minecraft.id}`, { headers: { cookie: `access_token=${buyer.token}` }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^http:\/\/localhost\/v2\/download\/\d+\?u=\d+&e=\d+&s=/);
  });

  it("a frozen pass may download; an expired one may not, nor an old link once the pass is gone", async () => {
    const buyer = await buyerWithPass(shop, PRODUCTS.minecraft.days1.id, GAMES.minecraft.id);
    const link = (await downloads(buyer)).body.url as string;
    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: buyer.token, json: { cheat_id: GAMES.minecraft.id } })).status).toBe(200);
    expect((await downloads(buyer)).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/user/subscriptions/unfreeze", { token: buyer.token, json: { cheat_id: GAMES.minecraft.id } })).status).toBe(200);
    clock.advance(86_400_000 - 5 * MINUTE);
    const late = (await downloads(buyer)).body.url as string;
    clock.advance(5 * MINUTE);
    await signIn(shop, buyer);
    expect((await downloads(buyer)).body.code).toBe("entitlement_inactive");
    for (const old of [link, late]) expect((await fetchFile(listening.url + new URL(old).pathname + new URL(old).search)).status).toBe(403);
    expect(existsSync(STORAGE)).toBe(true);
  });
});
