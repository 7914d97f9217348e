import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, runMemsvc, startMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

describe("memsvc reindex (issue 7)", () => {
  it("re-embeds a store with the configured embedder, so the service starts on it and finds every memory", async () => {
    const dataDir = makeTempDir();
    const before = await startMemsvc({ dataDir, env: { MEMSVC_EMBEDDER_LOCAL_DIMENSIONS: "64" } });
    const contents = ["Deploys run on Fridays", "The billing service owns invoices", "Use pnpm"];
    const ids: string[] = [];
    for (const content of contents) {
      const res = await fetch(`${before.baseUrl}/v1/remember`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content, scope: "permanent", tags: ["kept"] }),
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    await before.stop("SIGTERM");

    const env = { MEMSVC_EMBEDDER_LOCAL_DIMENSIONS: "128" };
    await expect(startMemsvc({ dataDir, env })).rejects.toThrow(/local-hash-v1:64/);
    const run = runMemsvc(["reindex"], env, dataDir);
    expect(run.stderr).not.toContain("reindex failed");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /re-embedded 3 memories of collection "memories" with local-hash-v1:128/,
    );

    const after = await startMemsvc({ dataDir, env });
    for (const [i, id] of ids.entries()) {
      const memory = (await (await fetch(`${after.baseUrl}/v1/memories/${id}`)).json()) as {
        content: string;
        tags: string[];
      };
      expect(memory).toMatchObject({ content: contents[i], tags: ["kept"] });
    }
    const search = (await (
      await fetch(`${after.baseUrl}/v1/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "billing invoices" }),
      })
    ).json()) as { results: { memory: { id: string } }[] };
    expect(search.results[0]?.memory.id).toBe(ids[1]);
    await after.stop("SIGTERM");
  });
});
