import { AsyncLocalStorage } from "node:async_hooks";
import { DEFAULT_TENANT } from "../../../core/tenancy/tenant-metadata.js";

/**
 * Who a request acts as (issue 23). The auth concern decides it from the credential, never from
 * the request body, before any route runs; everything below the edge (REST routes, the fast
 * lane, the MCP tools) reads it with {@link currentPrincipal} and acts inside its tenant.
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

const current = new AsyncLocalStorage<Principal>();

/**
 * Runs `work` as `principal`: {@link currentPrincipal} returns it there and in everything `work`
 * starts (promises, timers).
 *
 * @example
 * await runAs({ tenant: "acme", readOnly: true, operator: false, keyId: "k1" }, () => next());
 */
export function runAs<T>(principal: Principal, work: () => T): T {
  return current.run(principal, work);
}

/**
 * The principal of the request being served; {@link OPERATOR} outside any request (stdio MCP,
 * library use, startup work).
 *
 * @example
 * const { tenant } = currentPrincipal();
 */
export function currentPrincipal(): Principal {
  return current.getStore() ?? OPERATOR;
}
