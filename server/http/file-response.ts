// A file as a download (docs/product/delivery.md#downloads): streamed from disk (never read whole into
// memory), `Content-Disposition: attachment`, and byte ranges (RFC 9110, section 14) — one range per request,
// `If-Range` honoured by the ETag (the file's SHA-256) — so an interrupted download resumes.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { DomainError } from "../../core/shared/errors.ts";

export type FileToSend = { path: string; size: number; name: string; sha256: string };

/** The byte range a Range header asks of a file of `size` bytes: null for the whole file, "unsatisfiable" for none. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file (allowed by RFC 9110).
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/** `filename` (ASCII) and `filename*` (UTF-8) of Content-Disposition. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function fileResponse(request: Request, file: FileToSend): Promise<Response> {
  const info = await stat(file.path).catch(() => undefined);
  // A build whose file is gone (or not whole) is not served as if it were.
  if (!info || info.size !== file.size) throw new Error(`build file ${file.path} is missing or has ${info?.size ?? 0} of ${file.size} bytes`);
  const etag = `"${file.sha256}"`;
  const ifRange = request.headers.get("if-range");
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.get("range") ?? undefined, file.size);
  if (range === "unsatisfiable") {
    throw new DomainError("range_not_satisfiable");
  }
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Content-Disposition": disposition(file.name),
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": info.mtime.toUTCString(),
  });
  const start = range?.start ?? 0;
  const end = range?.end ?? file.size - 1;
  headers.set("Content-Length", String(file.size === 0 ? 0 : end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${file.size}`);
  const status = range ? 206 : 200;
  if (request.method === "HEAD" || file.size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(createReadStream(file.path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}
