// /admin/delivery/builds (docs/product/delivery.md#operator-calls): a game's builds, newest first (version, file, size,
// SHA-256, when), and the upload of a new one — file, version, notes for buyers and the reason for the audit log.
// The form posts multipart straight to this page; the action streams the file to STORAGE_DIR as the API does
// (server/http/multipart.ts: never the whole file in memory, at most BUILD_MAX_BYTES), so this path is, like the
// API's, past the 64 KiB body limit (server/api/delivery.ts: isBuildUpload). Plain posts, no client code.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import type { z } from "zod";
import { ReasonSchema } from "../../../core/admin/admin.schema.ts";
import { BuildFieldsSchema } from "../../../core/delivery/delivery.schema.ts";
import { DomainError } from "../../../core/shared/errors.ts";
import { issueKey } from "../../../server/http/body.ts";
import { readUpload } from "../../../server/http/multipart.ts";
import { Card } from "../../components/ui/primitives.tsx";
import { formatSize } from "../../../i18n/format.ts";
import { FormMessage, Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, replyTo, TextareaField, usePageForm } from "../../components/page-form.tsx";
import { useFormatDate } from "../../lib/dates.ts";
import { useLangTag, useT } from "../../lib/i18n.tsx";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { refuse } from "../../lib/forms.server.ts";
import { requireOperatorPage } from "../../lib/operator.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/delivery-builds.ts";

export const handle: RouteHandle = { hydrate: false };

/** The upload's text fields as the page asks for them: the API's, with the reason required. */
const UploadFields = BuildFieldsSchema.extend({ reason: ReasonSchema });
const CONSTRAINT = { file: { required: true }, version: { required: true, maxLength: 64 }, notes: { maxLength: 4000 }, reason: { required: true, maxLength: 500 } };

function gameOf(context: Route.LoaderArgs["context"], url: URL) {
  const { catalog } = context.services;
  const slug = url.searchParams.get("game");
  const games = catalog.cheats();
  return { games, game: (slug ? catalog.cheatBySlug(slug) : null) ?? games[0] ?? null };
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requireOperatorPage(context, url, "delivery");
  const { games, game } = gameOf(context, url);
  const list = game ? await context.services.builds.list(game.id) : [];
  return {
    games: games.map((g) => ({ slug: g.slug, name: g.name })),
    game: game && { slug: game.slug, name: game.name },
    builds: list,
    maxMiB: Math.floor(context.services.settings.BUILD_MAX_BYTES / 1024 ** 2),
    uploaded: url.searchParams.get("uploaded"),
    meta: { title: context.t("delivery.admin.builds.title"), description: context.t("delivery.admin.title") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  const operator = requireOperatorPage(context, url, "delivery");
  const { game } = gameOf(context, url);
  if (!game) throw new DomainError("not_found");
  const { builds, settings } = context.services;
  const answer = { raw: request, header: (name: string, value: string) => context.responseHeaders.set(name, value) };
  const fields = new FormData();
  const submission = () => parseWithZod(fields, { schema: UploadFields, formatError: (issues: z.core.$ZodIssue[]) => issues.slice(0, 1).map((issue) => context.t(issueKey(issue))) });
  let upload;
  try {
    upload = await readUpload(answer, { fileField: "file", maxBytes: settings.BUILD_MAX_BYTES, receive: (file) => builds.receive(file) });
  } catch (error) {
    return refuse(context, submission(), error);
  }
  for (const [name, value] of Object.entries(upload.fields)) fields.set(name, value);
  const checked = submission();
  if (!upload.file) {
    return refuse(context, checked, new DomainError("validation_failed", "errors.validation_failed", { fields: { file: "validation.required" } }));
  }
  const stored = upload.file.stored;
  if (checked.status !== "success") {
    await builds.discard(stored);
    return refuse(context, checked);
  }
  try {
    const { version, notes, reason } = checked.value;
    const build = await builds.publish(game.id, stored, { version, notes, fileName: upload.file.name }, { actorId: operator.id, ip: context.clientIp, reason });
    const back = new URL(selfPath(url), "http://x");
    back.searchParams.set("uploaded", build.version);
    return redirect(back.pathname + back.search);
  } catch (error) {
    await builds.discard(stored);
    return refuse(context, checked, error);
  }
}

export default function DeliveryBuilds({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const langTag = useLangTag();
  const date = useFormatDate();
  const { games, game, builds, maxMiB, uploaded } = loaderData;
  const [form, fields] = usePageForm("build", CONSTRAINT, { lastResult: replyTo(actionData) });
  return (
    <>
      <Form method="get" className="form form-inline">
        <label htmlFor="game">{t("delivery.admin.builds.game")}</label>
        <select id="game" name="game" defaultValue={game?.slug}>
          {games.map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.name}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-secondary">
          {t("delivery.admin.builds.show")}
        </button>
      </Form>
      {uploaded && <Notice>{t("delivery.admin.builds.uploaded", { version: uploaded })}</Notice>}
      {game && (
        <Card as="section" className="settings-card">
          <h2 className="h3">{t("delivery.admin.builds.upload", { game: game.name })}</h2>
          <Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
            <FormMessage errors={form.errors} id={form.errorId} />
            <div className={`field${fields.file.errors?.length ? " field-invalid" : ""}`}>
              <label htmlFor={fields.file.id}>{t("delivery.admin.builds.file")}</label>
              <input {...getInputProps(fields.file, { type: "file", ariaDescribedBy: fields.file.descriptionId })} />
              {fields.file.errors?.length ? (
                <p className="field-error" id={fields.file.errorId} role="alert">
                  {fields.file.errors.join(" ")}
                </p>
              ) : null}
              <p className="field-hint" id={fields.file.descriptionId}>
                {t("delivery.admin.builds.fileHint", { max: maxMiB })}
              </p>
            </div>
            <Field field={fields.version} label={t("delivery.admin.builds.version")} />
            <TextareaField field={fields.notes} label={t("delivery.admin.builds.notes")} rows={3} />
            <Field field={fields.reason} label={t("delivery.admin.reason")} />
            <SubmitButton block={false}>{t("delivery.admin.builds.submit")}</SubmitButton>
          </Form>
        </Card>
      )}
      <section aria-labelledby="builds-title">
        <h2 id="builds-title" className="h3">
          {t("delivery.admin.builds.list")}
        </h2>
        {builds.length === 0 ? (
          <p className="muted">{t("delivery.admin.builds.none")}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{t("delivery.admin.builds.version")}</th>
                  <th>{t("delivery.admin.col.file")}</th>
                  <th>{t("download.size")}</th>
                  <th>{t("download.checksum")}</th>
                  <th>{t("delivery.admin.col.uploaded")}</th>
                </tr>
              </thead>
              <tbody>
                {builds.map((build) => (
                  <tr key={build.id} data-build={build.version}>
                    <td>
                      <strong>{build.version}</strong>
                      {build.notes && <p className="muted small">{build.notes}</p>}
                    </td>
                    <td>{build.fileName}</td>
                    <td>{formatSize(build.size, langTag)}</td>
                    <td>
                      <code className="mono small">{build.sha256}</code>
                    </td>
                    <td>{date(build.createdAt, { time: true })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
