// /auth/undo-email?token=…: the link mailed to the old address when an e-mail change is asked for.
// Opening it only shows what it will do: mail scanners open links, so the undo itself is a POST
// from this page. It brings the old address back, ends every session and sends a reset code. The
// page runs no script (docs/decisions/0009-forms-on-the-server.md).
import { Link } from "react-router";
import { z } from "zod";
import { isLinkToken, LinkTokenSchema } from "../../../core/accounts/accounts.schema.ts";
import { DomainError, isDomainError } from "../../../core/shared/errors.ts";
import { localePath } from "../../../i18n/locales.ts";
import { FormMessage, Notice, SubmitButton } from "../../components/forms.tsx";
import { PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { GuestCard } from "../../components/guest-card.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/undo-email.ts";

export const handle: RouteHandle = { hydrate: false };

const UndoForm = z.object({ token: LinkTokenSchema });

export async function loader({ context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const { t, services } = context;
  const email = isLinkToken(token) ? ((await services.accounts.emailUndoTarget(token)) ?? null) : null;
  return { token: email ? token : "", email, meta: { title: t("auth.undoEmail.title"), description: t("auth.undoEmail.title") } };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request }: Route.ActionArgs) {
  const submission = await readSubmission(context, request, UndoForm);
  const invalid = new DomainError("invalid_link", "auth.undoEmail.invalid");
  if (submission.status !== "success") return refuse(context, submission, invalid);
  const { services, locale } = context;
  const { token } = submission.value;
  try {
    const email = await services.accounts.emailUndoTarget(token);
    try {
      const undone = await services.accounts.undoEmailChange(token);
      const resetHref = `${localePath(locale, "/auth/restore-password")}?step=code&email=${encodeURIComponent(undone.email)}`;
      return { ok: true as const, email: undone.email, resetHref };
    } catch (error) {
      // The page's own words for the two refusals the use case names; anything else as it is.
      if (isDomainError(error, "email_taken")) throw new DomainError("email_taken", "auth.undoEmail.taken", { params: { email: email ?? "" } });
      if (isDomainError(error, "invalid_link")) throw invalid;
      throw error;
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function UndoEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { token, email } = loaderData;
  const t = useT();
  const href = useHref();
  const done = actionData?.ok ? actionData : undefined;
  const refused = replyTo(actionData);
  const [form] = usePageForm("undo-email", {}, { lastResult: refused });
  return (
    <GuestCard centered title={t("auth.undoEmail.title")}>
      {done ? (
        <>
          <Notice>{t("auth.undoEmail.done", { email: done.email })}</Notice>
          <Link className="btn btn-primary" to={done.resetHref}>
            {t("auth.undoEmail.newPassword")}
          </Link>
        </>
      ) : email && !refused ? (
        <PageForm form={form}>
          <p>{t("auth.undoEmail.lead", { email })}</p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton variant="danger">{t("auth.undoEmail.submit")}</SubmitButton>
        </PageForm>
      ) : (
        <>
          {refused ? <FormMessage errors={form.errors} /> : <p className="muted">{t("auth.undoEmail.invalid")}</p>}
          <Link className="btn btn-primary" to={href("/auth")}>
            {t("auth.login.submit")}
          </Link>
        </>
      )}
    </GuestCard>
  );
}
