// /auth/undo-email?token=…: the link mailed to the old address when an e-mail change is asked for.
// Opening it only shows what it will do: mail scanners open links, so the undo itself is a POST
// from this page. It brings the old address back, ends every session and sends a reset code.
import { Form, Link, useActionData, useLoaderData, type MetaArgs } from "react-router";
import { isLinkToken } from "../../../core/accounts/accounts.schema.ts";
import { DomainError, isDomainError } from "../../../core/shared/errors.ts";
import { localePath } from "../../../i18n/locales.ts";
import { FormAlert, Notice, SubmitButton } from "../../components/forms.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formFailure, readForm, type FormResult } from "../../lib/forms.server.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

export async function loader({ context, request }: LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t, services } = context;
  const email = isLinkToken(token) ? ((await services.accounts.emailUndoTarget(token)) ?? null) : null;
  return { token: email ? token : "", email, meta: { title: t("auth.undoEmail.title"), description: t("auth.undoEmail.title") } };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

type UndoResult = FormResult | { ok: true; email: string; resetHref: string };

export async function action({ context, request }: ActionArgs) {
  const fields = await readForm(request);
  const { services, locale } = context;
  const token = fields.token ?? "";
  try {
    if (!isLinkToken(token)) throw new DomainError("invalid_link", "auth.undoEmail.invalid");
    const email = await services.accounts.emailUndoTarget(token);
    try {
      const undone = await services.accounts.undoEmailChange(token);
      const resetHref = `${localePath(locale, "/auth/restore-password")}?step=code&email=${encodeURIComponent(undone.email)}`;
      return { ok: true as const, email: undone.email, resetHref };
    } catch (error) {
      // The page's own words for the two refusals the use case names; anything else as it is.
      if (isDomainError(error, "email_taken")) throw new DomainError("email_taken", "auth.undoEmail.taken", { params: { email: email ?? "" } });
      if (isDomainError(error, "invalid_link")) throw new DomainError("invalid_link", "auth.undoEmail.invalid");
      throw error;
    }
  } catch (error) {
    return formFailure(context, error, {});
  }
}

export default function UndoEmail() {
  const { token, email } = useLoaderData<typeof loader>();
  const result = useActionData<UndoResult>();
  const t = useT();
  const href = useHref();
  const done = result?.ok ? result : undefined;
  const failed = result && !result.ok ? result : undefined;
  return (
    <section className="card auth-card centered" aria-labelledby="undo-title">
      <h1 id="undo-title">{t("auth.undoEmail.title")}</h1>
      {done ? (
        <>
          <Notice>{t("auth.undoEmail.done", { email: done.email })}</Notice>
          <Link className="btn btn-primary" to={done.resetHref}>
            {t("auth.undoEmail.newPassword")}
          </Link>
        </>
      ) : email && !failed ? (
        <Form method="post" className="form">
          <p>{t("auth.undoEmail.lead", { email })}</p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton variant="danger">{t("auth.undoEmail.submit")}</SubmitButton>
        </Form>
      ) : (
        <>
          {failed ? <FormAlert result={failed} /> : <p className="muted">{t("auth.undoEmail.invalid")}</p>}
          <Link className="btn btn-primary" to={href("/auth")}>
            {t("auth.login.submit")}
          </Link>
        </>
      )}
    </section>
  );
}
