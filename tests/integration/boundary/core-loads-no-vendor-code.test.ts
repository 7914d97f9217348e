import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Vendor SDKs and frameworks the pure core must never pull in, directly or transitively. */
const FORBIDDEN = ["chromadb", "cohere-ai", "hono", "@modelcontextprotocol/sdk", "tsyringe"];

const ENTRIES = ["core/index.ts", "core/testing/index.ts", "tests/support/boundary-probe.ts"];

/**
 * Loads the entries one after another in one fresh Node process (one tsx start-up instead of
 * three) and returns, per entry, the npm packages and URLs resolved while importing it. A marker
 * line in the log separates the entries; an entry that only re-uses modules an earlier one loaded
 * resolves nothing new, which is fine: the core is checked first and must load no vendor at all.
 */
async function packagesLoadedBy(
  logDir: string,
): Promise<Map<string, { packages: Set<string>; urls: string[] }>> {
  const log = join(logDir, "imports.log");
  const marker = (entry: string) => `--- entry ${entry}`;
  const script = ENTRIES.map(
    (entry) =>
      `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${marker(entry)}\n`)});` +
      `await import(${JSON.stringify(join(root, entry))});`,
  ).join("\n");
  await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      join(root, "tests/support/record-imports.mjs"),
      "--input-type=module",
      "-e",
      `import { appendFileSync } from "node:fs";\n${script}`,
    ],
    { cwd: root, env: { ...process.env, AGENT_SERVICES_IMPORT_LOG: log } },
  );
  const byEntry = new Map<string, { packages: Set<string>; urls: string[] }>();
  let current: { packages: Set<string>; urls: string[] } | undefined;
  for (const line of (await readFile(log, "utf8")).split("\n").filter(Boolean)) {
    const entry = ENTRIES.find((e) => line === marker(e));
    if (entry !== undefined) {
      current = { packages: new Set(), urls: [] };
      byEntry.set(entry, current);
      continue;
    }
    if (current === undefined) continue; // tsx and the hooks themselves
    current.urls.push(line);
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match?.[1]) current.packages.add(match[1]);
  }
  return byEntry;
}

describe("the dependency boundary of the core", () => {
  let logDir: string;
  let loaded: Map<string, { packages: Set<string>; urls: string[] }>;
  beforeAll(async () => {
    logDir = await mkdtemp(join(tmpdir(), "agent-services-boundary-"));
    loaded = await packagesLoadedBy(logDir);
  }, 30_000);
  afterAll(async () => {
    await rm(logDir, { recursive: true, force: true });
  });

  it("loads no vendor SDK or framework when the core entry point is imported", () => {
    const { packages, urls } = loaded.get("core/index.ts")!;
    // The probe must have seen the core's own modules, or an empty log would pass vacuously.
    expect(urls.some((url) => url.endsWith("/core/errors.ts"))).toBe(true);
    for (const vendor of FORBIDDEN) expect(packages, `core loaded ${vendor}`).not.toContain(vendor);
  });

  it("loads no vendor SDK or framework from the testing entry point either", () => {
    const { packages, urls } = loaded.get("core/testing/index.ts")!;
    expect(urls.some((url) => url.endsWith("/core/testing/in-memory-vector-store.ts"))).toBe(true);
    for (const vendor of FORBIDDEN) expect(packages).not.toContain(vendor);
  });

  it("sees vendor packages when an adapter entry point is imported, so the probe works", () => {
    expect(loaded.get("tests/support/boundary-probe.ts")!.packages).toContain("hono");
  });
});
