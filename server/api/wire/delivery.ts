// Delivery's wire format (docs/product/delivery.md): licences and devices, builds and download links,
// webhook endpoints and their deliveries — the core's types (camelCase, Date) → the API's JSON
// (snake_case, ISO 8601 in UTC), in this one place. Entitlements are built by the core as signed JSON
// text and pass through untouched: their bytes are what the signature covers.
import type { Build, DownloadLink } from "../../../core/delivery/builds.ts";
import type { Licence } from "../../../core/delivery/licences.ts";
import type { Delivery, Endpoint } from "../../../core/webhooks/index.ts";

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function licenceDto(licence: Licence) {
  return {
    cheat_id: licence.cheatId,
    key: licence.key,
    device_limit: licence.deviceLimit,
    devices: licence.devices.map((d) => ({ id: d.id, client_version: d.clientVersion, first_seen_at: iso(d.firstSeenAt), last_seen_at: iso(d.lastSeenAt) })),
    /** null: the devices may be cleared now. */
    reset_available_at: isoOrNull(licence.resetAvailableAt),
  };
}

/** A build as operators see it (the upload's answer). */
export function buildDto(build: Build) {
  return {
    id: build.id,
    cheat_id: build.cheatId,
    version: build.version,
    notes: build.notes,
    file_name: build.fileName,
    size: build.size,
    sha256: build.sha256,
    created_at: iso(build.createdAt),
  };
}

/** `GET /v2/web/user/downloads`: the build, the signed link (absolute) and the setup steps in the caller's language. */
export function downloadDto(link: DownloadLink, base: string, steps: string[]) {
  const { build } = link;
  return {
    build: { version: build.version, size: build.size, sha256: build.sha256, notes: build.notes, file_name: build.fileName, created_at: iso(build.createdAt) },
    url: base + link.path,
    expires_at: iso(link.expiresAt),
    steps,
  };
}

function deliveryDto(delivery: Delivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    type: delivery.type,
    user_id: delivery.userId,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === "pending" ? iso(delivery.nextAttemptAt) : null,
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    delivered_at: isoOrNull(delivery.deliveredAt),
    created_at: iso(delivery.createdAt),
  };
}

export function webhookDto(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    active: endpoint.active,
    secret_hint: endpoint.secretHint,
    created_at: iso(endpoint.createdAt),
    deliveries: endpoint.deliveries.map(deliveryDto),
  };
}
