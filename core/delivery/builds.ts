// Builds and downloads (docs/product/delivery.md#downloads): an owner uploads a build of a game's client
// (streamed to a file under STORAGE_DIR while its SHA-256 is computed, at most BUILD_MAX_BYTES); a
// buyer who holds a pass of the game gets the latest build through a link signed for them, valid
// DOWNLOAD_LINK_SECONDS (10 minutes). The link names the build, the buyer and its end, with an
// HMAC of the three; it is checked, and the pass again, on every request of the file.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Audit, AuditBy } from "../audit/index.ts";
import { builds } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import type { Subscriptions } from "../subscriptions/index.ts";

export type Build = {
  id: number;
  cheatId: number;
  version: string;
  notes: string;
  fileName: string;
  size: number;
  sha256: string;
  createdAt: Date;
};

/** A file received into STORAGE_DIR, not yet a build. */
export type StoredUpload = { tempPath: string; size: number; sha256: string };

/** What a buyer is given: the build and where to fetch it, until when. */
export type DownloadLink = { build: Build; path: string; expiresAt: Date };

type Row = typeof builds.$inferSelect;
const buildOf = ({ id, cheatId, version, notes, fileName, size, sha256, createdAt }: Row): Build => ({ id, cheatId, version, notes, fileName, size, sha256, createdAt });

/** A file name fit for Content-Disposition and a path: the upload's last segment, tame characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const tame = base
    .replace(/[^A-Za-z0-9._ -]/g, "_")
    .replace(/^[.\s]+/, "")
    .slice(0, 120)
    .trim();
  return tame || "build.bin";
}

class TooLarge extends Error {}

export type Builds = ReturnType<typeof createBuilds>;

export function createBuilds(deps: {
  db: Db;
  clock: Clock;
  audit: Audit;
  subscriptions: Subscriptions;
  storageDir: string;
  maxBytes: number;
  linkSeconds: number;
  /** The HMAC key of download links (derived from the client signing key). */
  linkKey: () => Promise<Buffer>;
}) {
  const { db, clock, maxBytes, linkSeconds, linkKey } = deps;
  const root = path.resolve(deps.storageDir);

  const mac = async (buildId: number, userId: number, expires: number) =>
    createHmac("sha256", await linkKey())
      .update(`download:${buildId}:${userId}:${expires}`)
      .digest("base64url");

  async function latestRow(cheatId: number): Promise<Row | undefined> {
    const [row] = await db.select().from(builds).where(eq(builds.cheatId, cheatId)).orderBy(desc(builds.id)).limit(1);
    return row;
  }

  /** Whether the user holds a pass of the game (active or frozen) and may have its builds. */
  async function holdsPass(userId: number, cheatId: number): Promise<boolean> {
    const pass = await deps.subscriptions.forCheat(userId, cheatId);
    return pass !== null && pass.state !== "expired";
  }

  return {
    /**
     * Streams an upload into a temporary file under STORAGE_DIR, hashing and counting it; more than
     * BUILD_MAX_BYTES is refused (413) and leaves nothing behind. Nothing is held in memory.
     */
    async receive(file: Readable): Promise<StoredUpload> {
      const tmpDir = path.join(root, "tmp");
      await mkdir(tmpDir, { recursive: true });
      const tempPath = path.join(tmpDir, `${Date.now()}-${randomBytes(8).toString("hex")}.part`);
      const hash = createHash("sha256");
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(new TooLarge());
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(file, meter, createWriteStream(tempPath, { flags: "wx" }));
      } catch (error) {
        await rm(tempPath, { force: true });
        // The rest of the request is not read: the client gets its answer and the connection ends.
        file.resume();
        if (error instanceof TooLarge) throw new DomainError("payload_too_large", "errors.build_too_large", { params: { max: Math.floor(maxBytes / 1024 ** 2) } });
        throw error;
      }
      return { tempPath, size, sha256: hash.digest("hex") };
    },

    /** Drops a received file that will not become a build. */
    discard: (upload: StoredUpload) => rm(upload.tempPath, { force: true }),

    /** Makes a received file the game's newest build, with its audit entry (docs/product/back-office.md#audit-log). */
    async publish(cheatId: number, upload: StoredUpload, input: { version: string; notes: string; fileName: string }, by: AuditBy): Promise<Build> {
      const fileName = safeFileName(input.fileName);
      const relative = path.join("builds", String(cheatId), `${upload.sha256.slice(0, 16)}-${randomBytes(6).toString("hex")}-${fileName}`);
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await rename(upload.tempPath, path.join(root, relative));
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(builds)
            .values({
              cheatId,
              version: input.version,
              notes: input.notes,
              fileName,
              storagePath: relative,
              size: upload.size,
              sha256: upload.sha256,
              createdBy: by.actorId,
              createdAt: clock.now(),
            })
            .returning();
          const build = buildOf(row!);
          await deps.audit.record(tx, {
            actorId: by.actorId,
            action: "build.upload",
            targetType: "build",
            targetId: build.id,
            reason: by.reason,
            after: { cheat_id: cheatId, version: build.version, file_name: build.fileName, size: build.size, sha256: build.sha256 },
            ip: by.ip,
          });
          return build;
        });
      } catch (error) {
        await rm(path.join(root, relative), { force: true });
        throw error;
      }
    },

    /** The game's builds, newest first (the back office's list). */
    async list(cheatId: number, limit = 50): Promise<Build[]> {
      const rows = await db.select().from(builds).where(eq(builds.cheatId, cheatId)).orderBy(desc(builds.id)).limit(limit);
      return rows.map(buildOf);
    },

    async latest(cheatId: number): Promise<Build | null> {
      const row = await latestRow(cheatId);
      return row ? buildOf(row) : null;
    },

    /**
     * The latest build of the game and a link to it signed for the user, who must hold a pass of
     * the game (403 entitlement_inactive); 404 when the game has no build yet.
     */
    async link(userId: number, cheatId: number): Promise<DownloadLink> {
      if (!(await holdsPass(userId, cheatId))) throw new DomainError("entitlement_inactive");
      const row = await latestRow(cheatId);
      if (!row) throw new DomainError("not_found", "errors.no_build");
      const expires = Math.floor(clock.now().getTime() / 1000) + linkSeconds;
      const signature = await mac(row.id, userId, expires);
      return { build: buildOf(row), path: `/v2/download/${row.id}?u=${userId}&e=${expires}&s=${signature}`, expiresAt: new Date(expires * 1000) };
    },

    /**
     * The file a signed link names, with where it lies: the signature must match, the link must not
     * have expired, and its user must still hold a pass of the build's game (403 otherwise).
     */
    async open(buildId: number, link: { u?: string; e?: string; s?: string }): Promise<{ build: Build; file: string }> {
      const userId = Number(link.u);
      const expires = Number(link.e);
      const refused = new DomainError("download_link_invalid");
      if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(expires) || typeof link.s !== "string" || link.s.length > 100) throw refused;
      const expected = Buffer.from(await mac(buildId, userId, expires));
      const given = Buffer.from(link.s);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
      if (expires * 1000 <= clock.now().getTime()) throw refused;
      const [row] = await db.select().from(builds).where(eq(builds.id, buildId));
      if (!row) throw refused;
      if (!(await holdsPass(userId, row.cheatId))) throw refused;
      return { build: buildOf(row), file: path.join(root, row.storagePath) };
    },
  };
}
