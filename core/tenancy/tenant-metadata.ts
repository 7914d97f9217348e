import type { Metadata, VectorRecord } from "../ports/vector-store.js";

/**
 * How a stored record names its tenant (issue 23): the metadata key `tenant`, absent for the
 * default tenant, so a single-user store is byte for byte what it was before tenants existed and
 * upgrades without a migration. Stores keep it as they keep any metadata key (the PostgreSQL
 * adapter also copies it into its `tenant` column).
 */

/** The metadata key naming a record's tenant (absent: {@link DEFAULT_TENANT}). */
export const TENANT_KEY = "tenant";

/** The tenant of records without a tenant key, and of the operator's requests that name none. */
export const DEFAULT_TENANT = "default";

/**
 * The tenant a record's metadata names.
 *
 * @example
 * tenantOf({ type: "fact" }); // "default"
 * tenantOf({ type: "fact", tenant: "acme" }); // "acme"
 */
export function tenantOf(metadata: Metadata): string {
  const tenant = metadata[TENANT_KEY];
  return typeof tenant === "string" && tenant !== "" ? tenant : DEFAULT_TENANT;
}

/**
 * The record with its tenant in its metadata (unchanged for the default tenant).
 *
 * @example
 * withTenant(record, "acme").metadata.tenant; // "acme"
 */
export function withTenant(record: VectorRecord, tenant: string): VectorRecord {
  if (tenant === DEFAULT_TENANT) return record;
  return { ...record, metadata: { ...record.metadata, [TENANT_KEY]: tenant } };
}

/** A tenant name: 1-64 of a-z, 0-9, `.`, `_`, `-`, starting with a letter or a digit. */
const TENANT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What a tenant name must look like, for messages. */
export const TENANT_NAME_RULE =
  "a tenant name: 1-64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or a digit";

/**
 * Whether `name` can be a tenant's name (they appear in headers, metrics labels and logs). One
 * rule for the edge, the key endpoints, the configuration and the core.
 *
 * @example
 * isTenantName("acme-prod"); // true
 * isTenantName("Acme Corp"); // false
 * isTenantName("../x"); // false
 */
export function isTenantName(name: string): boolean {
  return TENANT_NAME.test(name);
}
