import { createHash, timingSafeEqual } from "node:crypto";
import { DEFAULT_TENANT, type Principal } from "../http/principal.js";
import type { ApiKeys, KeyCheck } from "./api-keys.js";
import { isTenantName, TENANT_NAME_RULE } from "./tenant-name.js";

/** The header by which the operator names the tenant a request acts on. */
export const TENANT_HEADER = "X-Memsvc-Tenant";

/** Who a request acts as, or why it is refused (the message is safe to send). */
export type CallerDecision =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly status: 400 | 401 | 403; readonly message: string };

/**
 * Decides who a request acts as from its `Authorization` and `X-Memsvc-Tenant` headers (issue
 * 23), never from its body:
 *
 * - no operator token configured: authentication is off, every caller is the operator;
 * - `Bearer <operator token>` (compared in constant time): the operator;
 * - `Bearer msk_…`: the key's tenant, read-only if the key is ({@link ApiKeys.verify});
 * - anything else: 401 (`missing bearer token`, `invalid bearer token`, `expired API key`).
 *
 * The operator acts on the default tenant, or on the one `X-Memsvc-Tenant` names (400 for a bad
 * name); a key that names another tenant than its own gets 403. Nothing presented is ever
 * echoed back.
 *
 * @example
 * const auth = new CallerAuthenticator("s3cret", keys);
 * await auth.decide("Bearer s3cret", "acme"); // { ok: true, principal: { tenant: "acme", operator: true, … } }
 */
export class CallerAuthenticator {
  readonly #operator: Buffer | undefined;
  readonly #keys: ApiKeys | undefined;

  constructor(token: string | undefined, keys: ApiKeys | undefined) {
    this.#operator = token === undefined || token === "" ? undefined : digest(`Bearer ${token}`);
    this.#keys = keys;
  }

  /** Whether callers must authenticate (an operator token is configured). */
  get enabled(): boolean {
    return this.#operator !== undefined;
  }

  /** The decision when it needs no I/O (all but a key that is not in the verified cache). */
  quick(authorization: string | undefined, tenant: string | undefined): CallerDecision | undefined {
    const operator = this.#operator;
    if (operator === undefined) return operatorOn(tenant);
    if (authorization === undefined) return MISSING;
    if (timingSafeEqual(digest(authorization), operator)) return operatorOn(tenant);
    if (!authorization.startsWith("Bearer ") || this.#keys === undefined) return INVALID;
    const check = this.#keys.cached(authorization.slice(7));
    return check === undefined ? undefined : keyOn(check, tenant);
  }

  /** The decision, asking the key store when the verified cache cannot answer. */
  async decide(
    authorization: string | undefined,
    tenant: string | undefined,
  ): Promise<CallerDecision> {
    const quick = this.quick(authorization, tenant);
    if (quick !== undefined) return quick;
    const keys = this.#keys as ApiKeys;
    return keyOn(await keys.verify((authorization as string).slice(7)), tenant);
  }
}

const MISSING: CallerDecision = { ok: false, status: 401, message: "missing bearer token" };
const INVALID: CallerDecision = { ok: false, status: 401, message: "invalid bearer token" };
const EXPIRED: CallerDecision = {
  ok: false,
  status: 401,
  message: "expired API key (bearer token): ask the operator for a new one",
};
const BAD_NAME: CallerDecision = {
  ok: false,
  status: 400,
  message: `${TENANT_HEADER}: expected ${TENANT_NAME_RULE}`,
};
const OTHER_TENANT: CallerDecision = {
  ok: false,
  status: 403,
  message: `${TENANT_HEADER}: an API key acts on its own tenant only; only the operator token may name another tenant`,
};
const OPERATOR_DEFAULT: CallerDecision = {
  ok: true,
  principal: Object.freeze({ tenant: DEFAULT_TENANT, readOnly: false, operator: true }),
};

function operatorOn(tenant: string | undefined): CallerDecision {
  if (tenant === undefined) return OPERATOR_DEFAULT;
  if (!isTenantName(tenant)) return BAD_NAME;
  return { ok: true, principal: Object.freeze({ tenant, readOnly: false, operator: true }) };
}

function keyOn(check: KeyCheck, tenant: string | undefined): CallerDecision {
  if (!check.ok) return check.reason === "expired" ? EXPIRED : INVALID;
  if (tenant === undefined || tenant === check.principal.tenant) {
    return { ok: true, principal: check.principal };
  }
  return isTenantName(tenant) ? OTHER_TENANT : BAD_NAME;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
