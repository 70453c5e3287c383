// /auth/confirm-email?token=…: the link mailed to a new address; opening it makes the change.
// The page runs no script.
import { Link } from "react-router";
import { isLinkToken } from "../../../core/accounts/accounts.schema.ts";
import { isDomainError } from "../../../core/shared/errors.ts";
import { GuestCard } from "../../components/guest-card.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/confirm-email.ts";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ context, request }: Route.LoaderArgs) {
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

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function ConfirmEmail({ loaderData: { email } }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  return (
    <GuestCard centered title={t("auth.confirmEmail.title")}>
      <p className={email ? "" : "muted"}>{email ? t("auth.confirmEmail.done", { email }) : t("auth.confirmEmail.invalid")}</p>
      <Link className="btn btn-primary" to={href("/profile")}>
        {t("auth.confirmEmail.toProfile")}
      </Link>
    </GuestCard>
  );
}
