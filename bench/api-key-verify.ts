/**
 * Cost of checking a tenant's API key (issue 23): the first check of a key (store read + scrypt),
 * a check within the verified cache's window (`cached`, what the fast lane runs per request), a
 * wrong secret for a cached id (refused without scrypt), and the operator token's check. Prints
 * µs per check (wall, one core), with the load average: a loaded machine's figures are not a goal.
 *
 * Run:
 *   npx tsx bench/api-key-verify.ts [--n 200000] [--first 20]
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { InMemoryApiKeyStore } from "../core/testing/index.js";
import { ApiKeys } from "../shells/memsvc/auth/api-keys.js";
import { CallerAuthenticator } from "../shells/memsvc/auth/caller-authenticator.js";

const { values } = parseArgs({
  options: { n: { type: "string", default: "200000" }, first: { type: "string", default: "20" } },
});
const n = Number(values.n);
const first = Number(values.first);

const keys = new ApiKeys({ store: new InMemoryApiKeyStore() });
const made = await Promise.all(
  Array.from({ length: first }, () => keys.create({ tenant: "acme", readOnly: false })),
);

const started = performance.now();
for (const { key } of made) await keys.verify(key);
const firstUs = ((performance.now() - started) * 1000) / first;

const auth = new CallerAuthenticator("operator-token", keys);
const bearer = `Bearer ${made[0]?.key}`;
const wrong = `${bearer.slice(0, -4)}AAAA`;
function perCheck(header: string): number {
  const begin = performance.now();
  for (let i = 0; i < n; i += 1) auth.quick(header, undefined);
  return ((performance.now() - begin) * 1000) / n;
}
perCheck(bearer); // warm-up
const cachedUs = perCheck(bearer);
const wrongUs = perCheck(wrong);
const operatorUs = perCheck("Bearer operator-token");

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
console.log(
  `first check of a key (store read + scrypt N=2^14): ${firstUs.toFixed(0)} µs (${first} keys, one after the other)`,
);
console.log(
  `cached key (digest + constant-time compare):      ${cachedUs.toFixed(2)} µs (${n} checks)`,
);
console.log(`wrong secret for a cached id (no scrypt):         ${wrongUs.toFixed(2)} µs`);
console.log(`operator token:                                   ${operatorUs.toFixed(2)} µs`);
console.log(`load average: ${load}`);
