import type { Context } from "hono";
import { DEFAULT_TENANT } from "../../../core/tenancy/tenant-metadata.js";

/**
 * Who a request acts as (issue 23). The auth concern decides it from the credential, never from
 * the request body, before any route runs, and hands it on explicitly: the app's routes read it
 * with {@link principalOf}, the fast lane's routes from their admission; each acts on the memory
 * of the principal's tenant (`MemoryAppOptions.memory`). No async context carries it: a promise
 * hook on every promise cost ~30-60 µs of CPU a request.
 */
export interface Principal {
  /** The tenant every memory operation of the request acts inside. */
  readonly tenant: string;
  /** A read-only key: search, recall, list, get, stats and export only; writes get 403. */
  readonly readOnly: boolean;
  /** The operator: `api.auth_token`, or a service run without a token, or stdio MCP. */
  readonly operator: boolean;
  /** The key's id (never the key itself); undefined for the operator. */
  readonly keyId?: string | undefined;
}

/** The tenant of the operator's requests that name none: a single-user service's only tenant. */
export { DEFAULT_TENANT };

/** The operator on the default tenant: what a request is when nothing says otherwise. */
export const OPERATOR: Principal = Object.freeze({
  tenant: DEFAULT_TENANT,
  readOnly: false,
  operator: true,
});

const PRINCIPAL = "principal";

/**
 * Makes `principal` who the request of `c` acts as (the `caller-auth` concern calls it once it
 * decided): {@link principalOf} returns it for the rest of the request.
 *
 * @example
 * actAs(c, { tenant: "acme", readOnly: true, operator: false, keyId: "k1" });
 */
export function actAs(c: Context, principal: Principal): void {
  (c.set as (key: string, value: unknown) => void)(PRINCIPAL, principal);
}

/**
 * The principal the request of `c` acts as; {@link OPERATOR} when no caller check ran (an app
 * without the `caller-auth` concern, an open path).
 *
 * @example
 * if (!principalOf(c).operator) return c.json({ error: "forbidden" }, 403);
 */
export function principalOf(c: Context): Principal {
  return ((c.get as (key: string) => unknown)(PRINCIPAL) as Principal | undefined) ?? OPERATOR;
}
