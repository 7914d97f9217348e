import type { Hono, MiddlewareHandler } from "hono";
import { validator } from "hono-openapi";
import * as v from "valibot";
import { parseInput } from "../../../core/memory/index.js";
import type { ApiKeys } from "../auth/api-keys.js";
import { createKeySchema, keyIdSchema } from "../auth/key-schemas.js";
import { isTenantName, TENANT_NAME_RULE } from "../auth/tenant-name.js";
import { HttpError } from "./http-error.js";
import { jsonObjectBody } from "./json-object-body.js";
import { ROUTE_DOCS as doc } from "./memory-route-docs.js";
import { principalOf } from "./principal.js";
import { REQUEST_SCHEMA_OPTIONS, validJson } from "./valid-input.js";

/** What {@link mountKeyRoutes} needs. */
export interface KeyRoutesOptions {
  /** The keys (none: the service has no place to keep them, an external Chroma server). */
  readonly keys: ApiKeys | undefined;
  /** Whether an operator token is configured (without one, keys would never be checked). */
  readonly authEnabled: boolean;
  /** Milliseconds since the epoch (default `Date.now`): `expires_at` must be later. */
  readonly now?: () => number;
}

/**
 * Refuses every caller but the operator with 403: key management, `/metrics` (it counts every
 * tenant).
 *
 * @example
 * app.get("/metrics", operatorOnly("metrics"), handler);
 */
export function operatorOnly(what: string): MiddlewareHandler {
  return async (c, next) => {
    if (!principalOf(c).operator) {
      throw new HttpError(403, `${what} are for the operator token only, not for tenant API keys`);
    }
    await next();
  };
}

/**
 * The operator's key endpoints (issue 23): `POST /v1/keys` (`{tenant, read_only?, expires_at?}`
 * → the key, shown once), `GET /v1/keys[?tenant=NAME]`, `DELETE /v1/keys/{id}`. A tenant key
 * gets 403. Without an operator token (authentication off) or without a place for keys they
 * answer 409 saying why.
 *
 * @example
 * mountKeyRoutes(app, { keys: new ApiKeys({ store }), authEnabled: true });
 */
export function mountKeyRoutes(app: Hono, options: KeyRoutesOptions): void {
  const now = options.now ?? Date.now;
  const guard = operatorOnly("API keys");
  const available: MiddlewareHandler = async (_c, next) => {
    if (!options.authEnabled) {
      throw new HttpError(
        409,
        "API keys need an operator token: set api.auth_token (MEMSVC_API_AUTH_TOKEN); without one authentication is off and no key would be checked",
      );
    }
    if (options.keys === undefined) {
      throw new HttpError(
        409,
        "API keys are kept with the data (the embedded store's data directory or the PostgreSQL store); a service on an external Chroma server has no place for them",
      );
    }
    await next();
  };
  const keys = () => options.keys as ApiKeys;

  app.post(
    "/v1/keys",
    doc.createKey,
    guard,
    available,
    jsonObjectBody(),
    validJson(createKeySchema, "CreateKeyRequest"),
    async (c) => {
      const input = c.req.valid("json");
      if (input.expires_at !== undefined && Date.parse(input.expires_at) <= now()) {
        throw new HttpError(400, "expires_at: expected a date-time in the future");
      }
      const made = await keys().create({
        tenant: input.tenant,
        readOnly: input.read_only,
        expiresAt:
          input.expires_at === undefined ? undefined : new Date(input.expires_at).toISOString(),
      });
      return c.json(made);
    },
  );
  app.get("/v1/keys", doc.listKeys, guard, available, async (c) => {
    const tenant = c.req.query("tenant");
    if (tenant !== undefined && !isTenantName(tenant)) {
      throw new HttpError(400, `tenant: expected ${TENANT_NAME_RULE}`);
    }
    return c.json({ keys: await keys().list(tenant) });
  });
  app.delete(
    "/v1/keys/:id",
    doc.revokeKey,
    guard,
    available,
    validator(
      "param",
      v.object({ id: keyIdSchema }),
      (result) => {
        if (!result.success) parseInput(v.object({ id: keyIdSchema }), result.data);
      },
      REQUEST_SCHEMA_OPTIONS,
    ),
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await keys().revoke(id))) throw new HttpError(404, `no API key with id ${id}`);
      return c.json({ id, revoked: true as const });
    },
  );
}
