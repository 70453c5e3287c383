// /auth/verify-email?token=…: the link of the welcome mail (or a new one from the settings);
// opening it proves the address (docs/product/accounts.md#verified-addresses). Opening is enough:
// whoever opens it — the owner, or their mail scanner — reached the mailbox the link was sent to.
// The page runs no script.
import { EmailLinkCard } from "../../components/email-link.tsx";
import { emailLinkData } from "../../lib/email-link.server.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/verify-email.ts";

export const handle: RouteHandle = { hydrate: false };

export const loader = ({ context, url }: Route.LoaderArgs) => emailLinkData(context, url, "verifyEmail", (token) => context.services.accounts.verifyEmail(token), ["invalid_link"]);

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function VerifyEmail({ loaderData: { email } }: Route.ComponentProps) {
  return <EmailLinkCard page="verifyEmail" email={email} />;
}
