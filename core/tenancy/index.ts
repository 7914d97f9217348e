/**
 * Tenants (issue 23): every memory belongs to one tenant, named in its record's metadata
 * (`tenant-metadata.ts`); each tenant has its own `MemoryService` over its own view of the shared
 * store and feed (`tenant-vector-store.ts`, `tenant-change-feed.ts`), all built and loaded by one
 * `TenantSpace` (`tenant-space.ts`); `TenantMemoryApi` (`tenant-memory-api.ts`) routes every call
 * to its caller's tenant and enforces read-only callers and the memory quota.
 *
 * @example
 * const tenants = new TenantSpace({ store, space, create, newId });
 * await tenants.init();
 * const operator = { tenant: "default", readOnly: false };
 * const memory = new TenantMemoryApi(tenants, { caller: () => operator });
 * await memory.as({ tenant: "acme", readOnly: false }).remember({ content: "…" });
 */
export {
  DEFAULT_TENANT,
  TENANT_KEY,
  isTenantName,
  tenantOf,
  withTenant,
} from "./tenant-metadata.js";
export { TenantVectorStore } from "./tenant-vector-store.js";
export { sharedListen, tenantChangeFeed, type SharedListen } from "./tenant-change-feed.js";
export { TenantSpace, type TenantParts, type TenantSpaceDeps } from "./tenant-space.js";
export { TenantMemoryApi, type Caller, type TenantMemoryApiOptions } from "./tenant-memory-api.js";
