import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedChroma } from "../../adapters/chroma/chroma-launcher.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the real Chroma server the integration project shares. */
    chromaUrl: string;
  }
}

/**
 * Vitest global setup of the integration project: one real Chroma server (from the
 * npm-installed binding) on a free loopback port and a temp directory, shared by every
 * integration file through `inject("chromaUrl")`. Tests isolate themselves by collection name.
 *
 * @example
 * // in a test file
 * const store = new ChromaVectorStore({ url: inject("chromaUrl"), collection: `t-${randomUUID()}` });
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "agent-services-chroma-"));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  let chroma;
  try {
    chroma = await startEmbeddedChroma({
      path: join(dir, "data"),
      logFile: join(dir, "chroma.log"),
      startTimeoutMs: 60_000,
    });
  } catch (error) {
    await removeDir();
    throw error;
  }
  project.provide("chromaUrl", chroma.url);
  return async () => {
    try {
      await chroma.stop();
    } finally {
      await removeDir();
    }
  };
}
