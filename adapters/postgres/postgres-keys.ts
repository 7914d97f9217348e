import { createHash } from "node:crypto";

/**
 * The 64-bit advisory-lock key of a string: the first 8 bytes of its SHA-256 as a signed bigint,
 * in decimal (pass it as `$1::bigint`). Two different strings share a key with probability 2^-64.
 *
 * @example
 * advisoryKey("memsvc_schema_migrations"); // e.g. "-5284720362373011200"
 */
export function advisoryKey(name: string): string {
  return createHash("sha256").update(name, "utf8").digest().readBigInt64BE(0).toString();
}
