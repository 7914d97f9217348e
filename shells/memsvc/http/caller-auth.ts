import type { IncomingHttpHeaders } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { EdgeConcern, LaneAdmission } from "../../common/http/edge.js";
import { logCallerAs } from "../../common/http/request-log.js";
import type { CallerAuthenticator } from "../auth/caller-authenticator.js";
import { TENANT_HEADER } from "../auth/caller-authenticator.js";
import { actAs, OPERATOR, type Principal } from "./principal.js";

/**
 * The memory API's `caller-auth` edge concern (issue 23): every request but `GET`/`HEAD` of an
 * open path (`/healthz`) gets its principal from {@link CallerAuthenticator}, set on its context
 * (`actAs`, read with `principalOf`), or is refused with the `{error}` body (401 with `WWW-Authenticate: Bearer`, 400
 * for a bad `X-Memsvc-Tenant`, 403 for a key naming another tenant). The fast lane admits the
 * callers decided without I/O and hands their principal to the route with the admission
 * ({@link principalOfAdmission}); it hands the others to the app.
 *
 * @example
 * const concern = callerAuthConcern(new CallerAuthenticator(token, keys), ["/healthz"]);
 */
export function callerAuthConcern(
  auth: CallerAuthenticator,
  openPaths: readonly string[],
): EdgeConcern {
  const open = new Set(openPaths);
  const header = TENANT_HEADER.toLowerCase();
  const middleware: MiddlewareHandler = async (c, next) => {
    if (open.has(c.req.path) && (c.req.method === "GET" || c.req.method === "HEAD")) {
      await next();
      return;
    }
    const decision = await auth.decide(c.req.header("authorization"), c.req.header(header));
    if (decision.ok) {
      logCallerAs(c, callerName(decision.principal));
      actAs(c, decision.principal);
      await next();
      return;
    }
    return new Response(JSON.stringify({ error: decision.message }), {
      status: decision.status,
      headers: {
        "Content-Type": "application/json",
        ...(decision.status === 401 ? { "WWW-Authenticate": "Bearer" } : {}),
      },
    });
  };
  const admissions = new WeakMap<Principal, LaneAdmission>();
  const admissionOf = (principal: Principal): LaneAdmission => {
    let admission = admissions.get(principal);
    if (admission === undefined) {
      admission = { caller: callerName(principal) };
      admissions.set(principal, admission);
      principals.set(admission, principal);
    }
    return admission;
  };
  return {
    name: "caller-auth",
    middleware,
    lane: {
      admit: (headers: IncomingHttpHeaders) => {
        const decision = auth.quick(headers.authorization, headers[header] as string | undefined);
        return decision?.ok === true ? admissionOf(decision.principal) : undefined;
      },
    },
  };
}

const principals = new WeakMap<LaneAdmission, Principal>();

/**
 * The principal of a caller the lane admitted through {@link callerAuthConcern}; {@link OPERATOR}
 * for none (an edge without the concern), as the app's `principalOf` answers.
 *
 * @example
 * const memory = memoryOf(principalOfAdmission(call.admission));
 */
export function principalOfAdmission(admission: LaneAdmission | undefined): Principal {
  return (admission === undefined ? undefined : principals.get(admission)) ?? OPERATOR;
}

/**
 * The name the rate limiter keeps a caller's bucket under: `key:<id>` or `operator`.
 *
 * @example
 * callerName(principalOf(c)); // "key:0123456789abcdef"
 */
export function callerName(principal: Principal): string {
  return principal.keyId === undefined ? "operator" : `key:${principal.keyId}`;
}
