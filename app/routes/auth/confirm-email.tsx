// /auth/confirm-email?token=…: the link mailed to a new address; opening it makes the change. A
// dead link, or an address taken since: the page says the link did not work. The page runs no script.
import { EmailLinkCard } from "../../components/email-link.tsx";
import { emailLinkData } from "../../lib/email-link.server.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/confirm-email.ts";

export const handle: RouteHandle = { hydrate: false };

export const loader = ({ context, url }: Route.LoaderArgs) =>
  emailLinkData(context, url, "confirmEmail", (token) => context.services.accounts.confirmEmailChange(token), ["invalid_link", "email_taken"]);

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function ConfirmEmail({ loaderData: { email } }: Route.ComponentProps) {
  return <EmailLinkCard page="confirmEmail" email={email} />;
}
