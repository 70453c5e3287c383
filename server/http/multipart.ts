// A multipart/form-data upload of one file and a few short fields, streamed (docs/product/delivery.md#downloads):
// the file part goes straight to `receive` (a file under STORAGE_DIR) as it arrives, so a build of
// hundreds of MiB never sits in memory. The one request body allowed past BODY_LIMIT_BYTES (app.ts).
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import { DomainError } from "../../core/shared/errors.ts";

export type Upload<T> = { fields: Record<string, string>; file?: { name: string; stored: T } };

/** The request an upload comes in, and how to set a header of its answer: the API's and the back office page's alike. */
export type UploadRequest = { raw: Request; header(name: string, value: string): void };

/** What the fields together may weigh, on top of the file. */
const FIELDS_BYTES = 64 * 1024;

/**
 * Reads the upload: the fields, and the part named `fileField` handed to `receive` while it streams
 * (other file parts are skipped). A body announced larger than `maxBytes` and the fields is refused
 * before it is read; `receive` refuses one that turns out larger.
 */
export async function readUpload<T>(c: UploadRequest, options: { fileField: string; maxBytes: number; receive: (file: Readable) => Promise<T> }): Promise<Upload<T>> {
  const type = c.raw.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type)) throw new DomainError("unsupported_media_type", "errors.unsupported_media_type_multipart");
  const length = Number(c.raw.headers.get("content-length") ?? "0");
  if (length > options.maxBytes + FIELDS_BYTES) {
    c.header("Connection", "close");
    throw new DomainError("payload_too_large");
  }
  const body = c.raw.body;
  if (!body) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { [options.fileField]: "validation.required" } });
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  let parser: BusboyInstance;
  try {
    parser = new Busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 20, fieldSize: 8 * 1024, parts: 24 } });
  } catch {
    throw new DomainError("validation_failed", "errors.validation_failed", { fields: { [options.fileField]: "validation.required" } });
  }
  const fields: Record<string, string> = {};
  let file: { name: string; stored: Promise<T> } | undefined;

  return new Promise<Upload<T>>((resolve, reject) => {
    const fail = (error: unknown) => {
      source.unpipe(parser);
      source.destroy();
      // The rest of the body is not read: the answer ends the connection.
      c.header("Connection", "close");
      reject(error instanceof DomainError ? error : new DomainError("validation_failed", "errors.validation_failed", { fields: { [options.fileField]: "validation.invalid" } }));
    };
    parser.on("field", (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on("file", (name: string, stream: Readable, fileName: string) => {
      if (name !== options.fileField || file) {
        stream.resume();
        return;
      }
      file = { name: fileName || "build.bin", stored: options.receive(stream) };
      file.stored.catch(fail);
    });
    parser.on("error", fail);
    source.on("error", fail);
    parser.on("finish", () => {
      if (!file) return resolve({ fields });
      const { name } = file;
      file.stored.then((stored) => resolve({ fields, file: { name, stored } }), fail);
    });
    source.pipe(parser);
  });
}
