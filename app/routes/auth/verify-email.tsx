// /auth/verify-email?token=…: the link of the welcome mail (or a new one from the settings);
// opening it proves the address (docs/product/accounts.md#verified-addresses). Opening is enough:
// whoever opens it — the owner, or their mail scanner — reached the mailbox the link was sent to.
// The page runs no script.
import { Link } from "react-router";
import { isLinkToken } from "../../../core/accounts/accounts.schema.ts";
import { isDomainError } from "../../../core/shared/errors.ts";
import { GuestCard } from "../../components/guest-card.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/verify-email.ts";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t, services } = context;
  let email: string | null = null;
  if (isLinkToken(token)) {
    try {
      email = (await services.accounts.verifyEmail(token)).user.email;
    } catch (error) {
      if (!isDomainError(error, "invalid_link")) throw error;
    }
  }
  return { email, meta: { title: t("auth.verifyEmail.title"), description: t("auth.verifyEmail.title") } };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function VerifyEmail({ loaderData: { email } }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  return (
    <GuestCard centered title={t("auth.verifyEmail.title")}>
      <p className={email ? "" : "muted"}>{email ? t("auth.verifyEmail.done", { email }) : t("auth.verifyEmail.invalid")}</p>
      <Link className="btn btn-primary" to={href("/profile")}>
        {t("auth.confirmEmail.toProfile")}
      </Link>
    </GuestCard>
  );
}
