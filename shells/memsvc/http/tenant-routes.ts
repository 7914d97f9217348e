import type { Hono } from "hono";
import { describeRoute, resolver } from "hono-openapi";
import * as v from "valibot";
import { principalOf } from "./principal.js";
import { REQUEST_SCHEMA_OPTIONS } from "./valid-input.js";

/** What `GET /v1/tenants` reads: the live memories of every tenant holding some. */
export interface TenantDirectory {
  counts(): Promise<{ tenant: string; memories: number }[]>;
}

const tenantsSchema = v.object({
  tenants: v.array(v.object({ tenant: v.string(), memories: v.number() })),
});
const errorSchema = v.object({ error: v.string() });
const json = (schema: v.GenericSchema, ref: string) => ({
  "application/json": {
    schema: resolver(v.pipe(schema, v.metadata({ ref })), REQUEST_SCHEMA_OPTIONS),
  },
});

const listTenantsDoc = describeRoute({
  operationId: "listTenants",
  summary: "The tenants holding memories, with their counts (operator only)",
  responses: {
    "200": { description: "OK", content: json(tenantsSchema, "TenantList") },
    "401": { description: "Missing or invalid token", content: json(errorSchema, "Error") },
    "403": { description: "Not the operator", content: json(errorSchema, "Error") },
  },
});

/**
 * `GET /v1/tenants` (issue 23): for the operator (the memory browser's tenant picker), every
 * tenant holding live memories with how many, sorted by name; 403 `{error}` for a tenant key.
 *
 * @example
 * mountTenantRoutes(app, runtime.tenants);
 * // GET /v1/tenants → {"tenants":[{"tenant":"acme","memories":12},{"tenant":"default","memories":3}]}
 */
export function mountTenantRoutes(app: Hono, tenants: TenantDirectory): void {
  app.get("/v1/tenants", listTenantsDoc, async (c) => {
    if (!principalOf(c).operator) {
      return c.json({ error: "forbidden: only the operator's key may list tenants" }, 403);
    }
    return c.json({ tenants: await tenants.counts() });
  });
}
