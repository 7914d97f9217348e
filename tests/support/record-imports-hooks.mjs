// Module-resolution hooks that append every resolved URL to the file named by
// AGENT_SERVICES_IMPORT_LOG, so a test can see exactly which packages an entry point loads.
import { appendFileSync } from "node:fs";

const log = process.env.AGENT_SERVICES_IMPORT_LOG;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (log) appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
