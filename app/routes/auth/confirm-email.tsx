// /auth/confirm-email?token=…: the link mailed to a new address; opening it makes the change.
import { Link, useLoaderData, type MetaArgs } from "react-router";
import { isLinkToken } from "../../../core/accounts/accounts.schema.ts";
import { isDomainError } from "../../../core/shared/errors.ts";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { LoaderArgs } from "../../lib/route-args.ts";

export async function loader({ context, request }: LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t, services } = context;
  let email: string | null = null;
  if (isLinkToken(token)) {
    try {
      email = (await services.accounts.confirmEmailChange(token)).user.email;
    } catch (error) {
      // A dead link, or an address taken since: the page says the link did not work.
      if (!isDomainError(error, "invalid_link", "email_taken")) throw error;
    }
  }
  return { email, meta: { title: t("auth.confirmEmail.title"), description: t("auth.confirmEmail.title") } };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export default function ConfirmEmail() {
  const { email } = useLoaderData<typeof loader>();
  const t = useT();
  const href = useHref();
  return (
    <section className="card auth-card centered" aria-labelledby="confirm-title">
      <h1 id="confirm-title">{t("auth.confirmEmail.title")}</h1>
      <p className={email ? "" : "muted"}>{email ? t("auth.confirmEmail.done", { email }) : t("auth.confirmEmail.invalid")}</p>
      <Link className="btn btn-primary" to={href("/profile")}>
        {t("auth.confirmEmail.toProfile")}
      </Link>
    </section>
  );
}
