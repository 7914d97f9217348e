// One rule for tenant names, the core's: the edge, the key endpoints and the config use it.
export { isTenantName, TENANT_NAME_RULE } from "../../../core/tenancy/tenant-metadata.js";
