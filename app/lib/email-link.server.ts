// The pages a mailed link opens (/auth/confirm-email, /auth/verify-email: ?token=…) on the server:
// opening the link does what it was sent for; the page says for which address, or that the link
// did not work (no token, a dead one, or one the core refuses with one of `dead`).
import type { AppLoadContext } from "react-router";
import { isLinkToken } from "../../core/accounts/accounts.schema.ts";
import { isDomainError, type ErrorCode } from "../../core/shared/errors.ts";
import type { EmailLinkPage } from "../components/email-link.tsx";

export async function emailLinkData(context: AppLoadContext, url: URL, page: EmailLinkPage, open: (token: string) => Promise<{ user: { email: string } }>, dead: [ErrorCode, ...ErrorCode[]]) {
  const token = url.searchParams.get("token") ?? "";
  let email: string | null = null;
  if (isLinkToken(token)) {
    try {
      email = (await open(token)).user.email;
    } catch (error) {
      if (!isDomainError(error, ...dead)) throw error;
    }
  }
  const title = context.t(`auth.${page}.title`);
  return { email, meta: { title, description: title } };
}
