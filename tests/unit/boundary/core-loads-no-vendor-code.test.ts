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

/** Loads `entry` in a fresh Node process and returns the npm packages it resolved. */
async function packagesLoadedBy(
  entry: string,
  logDir: string,
): Promise<{ packages: Set<string>; urls: string[] }> {
  const log = join(logDir, `${entry.replaceAll("/", "_")}.log`);
  await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      join(root, "tests/support/record-imports.mjs"),
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(join(root, entry))});`,
    ],
    { cwd: root, env: { ...process.env, AGENT_SERVICES_IMPORT_LOG: log } },
  );
  const urls = (await readFile(log, "utf8")).split("\n").filter(Boolean);
  const packages = new Set<string>();
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match?.[1]) packages.add(match[1]);
  }
  return { packages, urls };
}

describe("the dependency boundary of the core", () => {
  let logDir: string;
  beforeAll(async () => {
    logDir = await mkdtemp(join(tmpdir(), "agent-services-boundary-"));
  });
  afterAll(async () => {
    await rm(logDir, { recursive: true, force: true });
  });

  it("loads no vendor SDK or framework when the core entry point is imported", async () => {
    const { packages, urls } = await packagesLoadedBy("core/index.ts", logDir);
    // The probe must have seen the core's own modules, or an empty log would pass vacuously.
    expect(urls.some((url) => url.endsWith("/core/errors.ts"))).toBe(true);
    for (const vendor of FORBIDDEN) expect(packages, `core loaded ${vendor}`).not.toContain(vendor);
  }, 30_000);

  it("loads no vendor SDK or framework from the testing entry point either", async () => {
    const { packages, urls } = await packagesLoadedBy("core/testing/index.ts", logDir);
    expect(urls.some((url) => url.endsWith("/core/testing/in-memory-vector-store.ts"))).toBe(true);
    for (const vendor of FORBIDDEN) expect(packages).not.toContain(vendor);
  }, 30_000);

  it("sees vendor packages when an adapter entry point is imported, so the probe works", async () => {
    const { packages } = await packagesLoadedBy("tests/support/boundary-probe.ts", logDir);
    expect(packages).toContain("hono");
  }, 30_000);
});
