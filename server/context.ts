// The typed context of a request: what middleware found out, and the services. Routes reach it as
// the React Router load context.
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Services } from "./services.ts";
import type { IdempotencyRecorder } from "./middleware/idempotency.ts";

import type { AuthSession, SessionUser } from "../core/sessions/index.ts";
import type { DomainError } from "../core/shared/errors.ts";
import type { Operator } from "../core/operators/index.ts";

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
  /**
   * Set by the write-limit middleware when a page's form post is over a write limit: the page
   * answers with it instead of running the action (server/pages.ts).
   */
  writeRefusal?: DomainError;
};

export type AppLoadContext = RequestInfo & { services: Services; responseHeaders: Headers };

declare module "react-router" {
  interface AppLoadContext extends RequestInfo {
    services: Services;
    /**
     * Headers a loader or action adds to the page's answer, e.g. Retry-After of a refused form:
     * React Router passes an action's headers on to a document only through a `headers` export.
     */
    responseHeaders: Headers;
  }
}

/** Hono's per-request variables. */
export type HonoEnv = {
  Variables: {
    info: RequestInfo;
    services: Services;
    /** Set by the Idempotency-Key middleware: stores the answer inside the effect's transaction. */
    idempotency?: IdempotencyRecorder;
    /** Set by the operator guard on back-office calls (server/middleware/operator.ts). */
    operator?: Operator;
    /** The route pattern of a page that answered, for metrics (server/route-patterns.ts). */
    route?: string;
  };
};
