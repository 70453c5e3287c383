// What a page opened by a mailed link shows (app/lib/email-link.server.ts): done for the address,
// or that the link did not work; either way the way on to the profile.
import { Link } from "react-router";
import { useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { GuestCard } from "./guest-card.tsx";

/** The mailed links with a page of their own: their messages are `auth.<page>.*`. */
export type EmailLinkPage = "confirmEmail" | "verifyEmail";

export function EmailLinkCard({ page, email }: { page: EmailLinkPage; email: string | null }) {
  const t = useT();
  const href = useHref();
  return (
    <GuestCard centered title={t(`auth.${page}.title`)}>
      <p className={email ? "" : "muted"}>{email ? t(`auth.${page}.done`, { email }) : t(`auth.${page}.invalid`)}</p>
      <Link className="btn btn-primary" to={href("/profile")}>
        {t("auth.confirmEmail.toProfile")}
      </Link>
    </GuestCard>
  );
}
