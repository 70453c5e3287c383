// /auth/sso?ticket=…: a one-time ticket becomes a session, then the user goes on like after a
// sign-in. An invalid or used ticket shows why, with a way to sign in.
import { Link, redirect, useLoaderData, type MetaArgs } from "react-router";
import { DomainError } from "../../../core/shared/errors.ts";
import { signInCookies } from "../../../server/http/cookies.ts";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { afterSignIn } from "../../lib/guards.server.ts";
import { cookieHeaders, requestMeta } from "../../lib/forms.server.ts";
import type { LoaderArgs } from "../../lib/route-args.ts";

export async function loader({ context, request }: LoaderArgs) {
  const url = new URL(request.url);
  const ticket = url.searchParams.get("ticket") ?? "";
  const { t, services } = context;
  if (/^[A-Za-z0-9_-]{20,200}$/.test(ticket)) {
    try {
      const { token } = await services.accounts.consumeSsoTicket(ticket, requestMeta(context, request));
      return redirect(afterSignIn(context, request, url.searchParams.get("redirectTo")), {
        headers: cookieHeaders(signInCookies(token, services.settings.secureCookies)),
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { meta: { title: t("auth.sso.title"), description: t("auth.sso.invalid") } };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export default function Sso() {
  useLoaderData<typeof loader>();
  const t = useT();
  const href = useHref();
  return (
    <section className="card auth-card centered" aria-labelledby="sso-title">
      <h1 id="sso-title">{t("auth.sso.title")}</h1>
      <p className="muted">{t("auth.sso.invalid")}</p>
      <Link className="btn btn-primary" to={href("/auth")}>
        {t("auth.login.submit")}
      </Link>
    </section>
  );
}
