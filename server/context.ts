// The typed context of a request: what middleware found out, and the services. Routes reach it as
// the React Router load context.
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Services } from "./services.ts";
import type { IdempotencyRecorder } from "./middleware/idempotency.ts";

import type { AuthSession, SessionUser } from "../core/sessions/index.ts";

/** The session of the request, when its token is live. */
export type Auth = { session: AuthSession; user: SessionUser; token: string } | null;

export type RequestInfo = {
  requestId: string;
  locale: Locale;
  /** The path without its locale prefix, e.g. "/minecraft". */
  path: string;
  shoppingArea: string;
  clientIp: string;
  isBot: boolean;
  t: Translate;
  /** Set by the session middleware; null for guests. */
  auth: Auth;
};

export type AppLoadContext = RequestInfo & { services: Services };

declare module "react-router" {
  interface AppLoadContext extends RequestInfo {
    services: Services;
  }
}

/** Hono's per-request variables. */
export type HonoEnv = {
  Variables: {
    info: RequestInfo;
    services: Services;
    /** Set by the Idempotency-Key middleware: stores the answer inside the effect's transaction. */
    idempotency?: IdempotencyRecorder;
  };
};
