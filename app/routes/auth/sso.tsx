// /auth/sso?ticket=…: a one-time ticket becomes a session, then the user goes on like after a
// sign-in. Opening the link only shows whose account it signs in to; the visitor's POST from this
// page spends the ticket (issue 7). Mail and chat link scanners open every GET, and an attacker's
// link must not swap a signed-in visitor's session for another account without a word: so a GET
// spends nothing, and a signed-in visitor sees both accounts and keeps theirs unless they confirm.
// A cross-site POST is refused by the origin check like every form post (docs/product/api.md#origin-check). An
// invalid, expired or used ticket shows why, with a way to sign in.
import { Link, redirect } from "react-router";
import { isLinkToken, SsoTicketSchema } from "../../../core/accounts/accounts.schema.ts";
import { DomainError, isDomainError } from "../../../core/shared/errors.ts";
import { signInCookies } from "../../../server/http/cookies.ts";
import { SubmitButton } from "../../components/forms.tsx";
import { PageForm, usePageForm } from "../../components/page-form.tsx";
import { GuestCard } from "../../components/guest-card.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { afterSignIn, storedGameProfile } from "../../lib/guards.server.ts";
import { RedirectToSchema, cookieHeaders, readSubmission, refuse, requestMeta } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/sso.ts";

export const handle: RouteHandle = { hydrate: false };

const SsoForm = SsoTicketSchema.extend({ redirectTo: RedirectToSchema });

type Account = { email: string; username: string | null };

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const ticket = url.searchParams.get("ticket") ?? "";
  const redirectTo = url.searchParams.get("redirectTo") ?? "";
  const { t, services, auth } = context;
  const meta = { title: t("auth.sso.title"), description: t("auth.sso.description") };
  let account: (Account & { userId: number }) | undefined;
  if (isLinkToken(ticket)) {
    try {
      account = await services.accounts.ssoTicketAccount(ticket);
    } catch (error) {
      if (!isDomainError(error, "invalid_link")) throw error;
    }
  }
  if (!account) return { state: "invalid" as const, meta };
  // Already signed in to that very account: nothing to swap, and the ticket stays unspent.
  if (auth?.user.id === account.userId) throw redirect(afterSignIn(context, request, redirectTo));
  const show = ({ email, username }: Account): Account => ({ email, username });
  return {
    state: "confirm" as const,
    ticket,
    redirectTo,
    account: show(account),
    current: auth ? show(auth.user) : null,
    profile: storedGameProfile(context, request),
    meta,
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request }: Route.ActionArgs) {
  const submission = await readSubmission(context, request, SsoForm);
  // A ticket not shaped like one is answered like an unknown one.
  if (submission.status !== "success") return refuse(context, submission, new DomainError("invalid_link"));
  const { services, auth } = context;
  try {
    const { token } = await services.accounts.consumeSsoTicket(submission.value.ticket, requestMeta(context, request));
    // The visitor chose to switch accounts: the session they leave ends rather than lingers.
    if (auth) await services.accounts.logout(auth.session.id);
    return redirect(afterSignIn(context, request, submission.value.redirectTo), {
      headers: cookieHeaders(signInCookies(token, services.settings.secureCookies)),
    });
  } catch (error) {
    return refuse(context, submission, error);
  }
}

function AccountName({ account }: { account: Account }) {
  return (
    <p className="sso-account">
      <strong>{account.email}</strong>
      {account.username && <span className="muted"> · {account.username}</span>}
    </p>
  );
}

export default function Sso({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  if (loaderData.state === "invalid" || actionData) {
    return (
      <GuestCard centered title={t("auth.sso.title")} lead={t("auth.sso.invalid")}>
        <Link className="btn btn-primary" to={href("/auth")}>
          {t("auth.login.submit")}
        </Link>
      </GuestCard>
    );
  }
  const { ticket, redirectTo, account, current, profile } = loaderData;
  const currentName = current ? (current.username ?? current.email) : "";
  return (
    <GuestCard centered title={t("auth.sso.title")} lead={t("auth.sso.lead")}>
      <AccountName account={account} />
      {current && (
        <div className="alert alert-info" role="note">
          <Icon name="alert" size={18} />
          <span>{t("auth.sso.switch", { current: currentName })}</span>
        </div>
      )}
      <ConfirmForm ticket={ticket} redirectTo={redirectTo} />
      {current && (
        <Link className="btn btn-ghost btn-block" to={profile}>
          {t("auth.sso.stay", { current: currentName })}
        </Link>
      )}
    </GuestCard>
  );
}

/** Spends the ticket: the visitor's own choice, never a GET's. */
function ConfirmForm({ ticket, redirectTo }: { ticket: string; redirectTo: string }) {
  const t = useT();
  const [form] = usePageForm("sso", {});
  return (
    <PageForm form={form}>
      <input type="hidden" name="ticket" value={ticket} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <SubmitButton>{t("auth.sso.confirm")}</SubmitButton>
    </PageForm>
  );
}
