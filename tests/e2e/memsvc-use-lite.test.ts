import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, runMemsvc, startMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

const USE_LITE = { MEMSVC_EMBEDDER_LOCAL_MODEL: "use-lite" };

async function remember(baseUrl: string, content: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/remember`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ content, scope: "permanent" }),
  });
  return ((await res.json()) as { id: string }).id;
}

describe("the use-lite local embedder in memsvc (issue 22)", () => {
  it("is switched to with memsvc reindex, and the service then serves on it from the built package", async () => {
    const dataDir = makeTempDir();
    const before = await startMemsvc({ dataDir, env: {} });
    const ids = [
      await remember(before.baseUrl, "To roll back a deploy, run kubectl rollout undo"),
      await remember(before.baseUrl, "The espresso machine is on the third floor"),
    ];
    await before.stop("SIGTERM");

    await expect(startMemsvc({ dataDir, env: USE_LITE })).rejects.toThrow(/local-glove-sif-v1:100/);
    const run = runMemsvc(["reindex"], USE_LITE, dataDir);
    expect(run.stderr).not.toContain("reindex failed");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /re-embedded 2 memories of collection "memories" with local-use-lite-v1:512/,
    );

    const after = await startMemsvc({ dataDir, env: USE_LITE });
    const search = (await (
      await fetch(`${after.baseUrl}/v1/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "how do I undo a bad release?" }),
      })
    ).json()) as { results: { memory: { id: string } }[] };
    expect(search.results[0]?.memory.id).toBe(ids[0]);
    const ready = await fetch(`${after.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    await after.stop("SIGTERM");
  });

  it("lets a process that used it exit by itself: idle threads hold nothing open", () => {
    const local = fileURLToPath(new URL("../../dist/adapters/local/index.js", import.meta.url));
    const code =
      `const { UseLiteEmbedder } = await import(${JSON.stringify(local)});` +
      `const v = await new UseLiteEmbedder().embedQuery("hello");` +
      `console.log("dimensions", v.length);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe("dimensions 512");
  });
});
