/** A tenant name: 1-64 of a-z, 0-9, `.`, `_`, `-`, starting with a letter or a digit. */
const TENANT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What a tenant name must look like, for messages. */
export const TENANT_NAME_RULE =
  "a tenant name: 1-64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or a digit";

/**
 * Whether `name` is a valid tenant name (the default tenant's, `default`, is one).
 *
 * @example
 * isTenantName("acme"); // true
 * isTenantName("Acme Corp"); // false
 */
export function isTenantName(name: string): boolean {
  return TENANT_NAME.test(name);
}
