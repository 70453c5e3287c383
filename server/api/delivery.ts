// Delivery's API (docs/product/delivery.md): the game client's calls `/v2/client/…` (no cookies, no
// origin check, their own rate limits), the buyer's licence, devices and downloads, the signed
// download itself, and the operators' build uploads and webhook endpoints.
import { Hono, type Context } from "hono";
import type { HonoEnv } from "../context.ts";
import { jsonBody, query, validate } from "../http/body.ts";
import { ok } from "../http/envelope.ts";
import { fileResponse } from "../http/file-response.ts";
import { readUpload } from "../http/multipart.ts";
import { bearerToken, requireAuth } from "../middleware/session.ts";
import { operatorGuard, permit, requireOperator } from "../middleware/operator.ts";
import type { AuditBy } from "../../core/audit/index.ts";
import { addressKey } from "../../core/ratelimit/index.ts";
import { DomainError, isDomainError } from "../../core/shared/errors.ts";
import { IdTextSchema } from "../../core/shared/schema.ts";
import { ActivateSchema, BuildFieldsSchema, DeliveryReasonSchema, DownloadQuerySchema, LicenceSchema, WebhookEndpointSchema } from "../../core/delivery/delivery.schema.ts";
import type { Translate } from "../../i18n/translate.ts";
import { buildDto, downloadDto, licenceDto, webhookDto } from "./wire/delivery.ts";

/**
 * The one request body allowed past BODY_LIMIT_BYTES: a build upload, streamed (app.ts) — the API's, and the back office's
 * builds page in any language (app/routes/admin/delivery-builds.tsx).
 */
export const isBuildUpload = (path: string) => /^\/v2\/admin\/games\/[^/]+\/builds$/.test(path) || /^(\/[a-z]{2})?\/admin\/delivery\/builds$/.test(path);

/** The setup steps of a download, in the reader's language. */
export const setupSteps = (t: Translate) => [t("download.steps.1"), t("download.steps.2"), t("download.steps.3"), t("download.steps.4")];

export function deliveryRoutes() {
  const api = new Hono<HonoEnv>();
  const services = (c: Context<HonoEnv>) => c.get("services");
  const idParam = (c: Context<HonoEnv>, name: string) => validate(IdTextSchema, c.req.param(name));

  // ---- the game client (docs/product/delivery.md#client-api) ----

  // Every client call counts against its address, before anything else is read.
  api.use("/v2/client/*", async (c, next) => {
    const { limiter, settings } = services(c);
    await limiter.consume(`client:ip:${addressKey(c.get("info").clientIp)}`, settings.RATE_CLIENT_ADDRESS);
    return next();
  });

  api.post("/v2/client/activate", async (c) => {
    const input = await jsonBody(c, ActivateSchema);
    const result = await services(c).client.activate({ key: input.key, hwid: input.hwid, clientVersion: input.client_version });
    return ok(c, { token: result.token, entitlement: result.entitlement });
  });

  api.post("/v2/client/heartbeat", async (c) => ok(c, { entitlement: await services(c).client.heartbeat(bearerToken(c)) }));

  api.get("/v2/client/public-key", async (c) => ok(c, await services(c).client.publicKey()));

  // ---- the buyer (docs/product/delivery.md#licences, #downloads) ----

  api.get("/v2/web/user/licence", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = query(c, DownloadQuerySchema);
    return ok(c, { licence: licenceDto(await services(c).licences.forCheat(auth.user.id, cheat_id)) });
  });

  api.post("/v2/web/user/licence/regenerate", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = await jsonBody(c, LicenceSchema);
    return ok(c, { licence: licenceDto(await services(c).licences.regenerate(auth.user.id, cheat_id)) });
  });

  api.post("/v2/web/user/licence/devices/clear", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = await jsonBody(c, LicenceSchema);
    return ok(c, { licence: licenceDto(await services(c).licences.clearDevices(auth.user.id, cheat_id)) });
  });

  api.get("/v2/web/user/downloads", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = query(c, DownloadQuerySchema);
    const link = await services(c).builds.link(auth.user.id, cheat_id);
    return ok(c, downloadDto(link, downloadBase(c), setupSteps(c.get("info").t)));
  });

  // The profile's download button: a fresh signed link for every click, then the file.
  api.get("/v2/web/user/downloads/latest", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = query(c, DownloadQuerySchema);
    const link = await services(c).builds.link(auth.user.id, cheat_id);
    return c.redirect(downloadBase(c) + link.path, 302);
  });

  api.on(["GET", "HEAD"], "/v2/download/:id", async (c) => {
    const { build, file } = await services(c).builds.open(idParam(c, "id"), c.req.query());
    try {
      return await fileResponse(c.req.raw, { path: file, size: build.size, name: build.fileName, sha256: build.sha256 });
    } catch (error) {
      if (isDomainError(error, "range_not_satisfiable")) c.header("Content-Range", `bytes */${build.size}`);
      throw error;
    }
  });

  // ---- operators (owner): builds and webhooks (docs/product/delivery.md#operator-calls) ----
  // Behind the back office's guard (guests 401, buyers 403, operators without 2FA 403 two_fa_required), owners
  // only (support 403), every write audited with the operator, their address and a reason.

  const owner = [operatorGuard(), permit("delivery")] as const;
  const by = (c: Context<HonoEnv>, reason: string | undefined, fallback: string): AuditBy => ({ actorId: requireOperator(c).id, ip: c.get("info").clientIp, reason: reason ?? fallback });
  const endpoints = async (c: Context<HonoEnv>) => (await services(c).webhooks.list()).map(webhookDto);

  api.get("/v2/admin/games/:id/builds", ...owner, async (c) => {
    const { builds, catalog } = services(c);
    const game = catalog.cheatById(idParam(c, "id"));
    if (!game) throw new DomainError("not_found");
    return ok(c, { builds: (await builds.list(game.id)).map(buildDto) });
  });

  api.post("/v2/admin/games/:id/builds", ...owner, async (c) => {
    const { builds, catalog, settings } = services(c);
    const game = catalog.cheatById(idParam(c, "id"));
    if (!game) throw new DomainError("not_found");
    const upload = await readUpload(
      { raw: c.req.raw, header: (name, value) => c.header(name, value) },
      { fileField: "file", maxBytes: settings.BUILD_MAX_BYTES, receive: (file) => builds.receive(file) },
    );
    if (!upload.file) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { file: "validation.required" } });
    const stored = upload.file.stored;
    try {
      const fields = validate(BuildFieldsSchema, upload.fields);
      const build = await builds.publish(game.id, stored, { version: fields.version, notes: fields.notes, fileName: upload.file.name }, by(c, fields.reason, `build ${fields.version} uploaded`));
      return ok(c, { build: buildDto(build) });
    } catch (error) {
      await builds.discard(stored);
      throw error;
    }
  });

  api.get("/v2/admin/webhooks", ...owner, async (c) => ok(c, { webhooks: await endpoints(c) }));

  api.post("/v2/admin/webhooks", ...owner, async (c) => {
    const { reason, ...input } = await jsonBody(c, WebhookEndpointSchema);
    const created = await services(c).webhooks.create(input, by(c, reason, "endpoint added"));
    const list = await endpoints(c);
    // The secret is answered this once.
    return ok(c, { webhook: { ...list.find((e) => e.id === created.id)!, secret: created.secret }, webhooks: list });
  });

  api.delete("/v2/admin/webhooks/:id", ...owner, async (c) => {
    const { reason } = await jsonBody(c, DeliveryReasonSchema);
    await services(c).webhooks.remove(idParam(c, "id"), by(c, reason, "endpoint removed"));
    return ok(c, { webhooks: await endpoints(c) });
  });

  api.post("/v2/admin/webhooks/deliveries/:id/resend", ...owner, async (c) => {
    const { reason } = await jsonBody(c, DeliveryReasonSchema);
    await services(c).webhooks.resend(idParam(c, "id"), by(c, reason, "resent by hand"));
    return ok(c, { webhooks: await endpoints(c) });
  });

  return api;
}

/** Where the signed links point: the API's base when it has its own (PUBLIC_API_URL), else the site. */
function downloadBase(c: Context<HonoEnv>): string {
  const { settings } = c.get("services");
  return settings.PUBLIC_API_URL || settings.PUBLIC_URL;
}
