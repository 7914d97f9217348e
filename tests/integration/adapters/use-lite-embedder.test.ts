import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../core/errors.js";
import { UseLiteEmbedder } from "../../../adapters/local/use-lite-embedder.js";
import { describeEmbedderContract } from "../../contracts/embedder-contract.js";

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
}

/** One embedder (two threads) for the whole file: starting threads costs ~0.5 s each. */
const shared = new UseLiteEmbedder({ threads: 2 });
const dirs: string[] = [];

afterAll(async () => {
  await shared.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeEmbedderContract("UseLiteEmbedder", async () => ({
  embedder: shared,
  cleanup: () => Promise.resolve(),
}));

/** ~120 pieces of ordinary prose: one of the costliest texts the encoder reads. */
const LONG =
  "Before a release, the on-call engineer checks the dashboards, reads the open incidents, " +
  "confirms the database migrations ran on staging, and writes a short note in the channel " +
  "so that everyone knows which version is going out and who to ask when something breaks. ";

describe("UseLiteEmbedder", () => {
  it("names its own vector space: 512 dimensions, apart from the other local embedders", () => {
    expect(shared.id).toBe("local-use-lite-v1:512");
    expect(shared.dimensions).toBe(512);
  });

  it("embeds off the event loop: timers and other work run while a slow batch is embedded", async () => {
    const texts = Array.from({ length: 16 }, (_, i) => `${LONG} (${i})`.repeat(2));
    let settled = false;
    const batch = shared.embedDocuments(texts).finally(() => {
      settled = true;
    });
    // Turns of the event loop while the batch is in the threads. On this thread the same work
    // would allow none: it is one synchronous computation per text.
    let turns = 0;
    while (!settled && turns < 1_000_000) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns += 1;
      if (turns === 5) expect(settled).toBe(false);
    }
    expect((await batch).length).toBe(16);
    expect(turns).toBeGreaterThan(5);
  });

  it("answers a query that arrives behind a large batch before the batch is done", async () => {
    const order: string[] = [];
    const batch = shared
      .embedDocuments(Array.from({ length: 48 }, (_, i) => `${LONG} ${i}`))
      .then(() => order.push("batch"));
    const query = shared.embedQuery("who is on call for the release?").then(() => {
      order.push("query");
    });
    await Promise.all([batch, query]);
    expect(order).toEqual(["query", "batch"]);
  });

  it("puts a paraphrase closer than an unrelated memory", async () => {
    const query = await shared.embedQuery("how do I undo a bad release?");
    const [paraphrase, unrelated] = await shared.embedDocuments([
      "To roll back a deploy, run kubectl rollout undo on the deployment",
      "The espresso machine is on the third floor next to the kitchen",
    ]);
    expect(cosine(query, paraphrase ?? [])).toBeGreaterThan(cosine(query, unrelated ?? []) + 0.2);
  });

  it("refuses a damaged asset at verify() and fails its embeddings with embedder_failed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "use-lite-"));
    dirs.push(dir);
    const path = join(dir, "broken.bin");
    writeFileSync(path, "not a model");
    const broken = new UseLiteEmbedder({ path });
    expect(() => broken.verify()).toThrow(/not a USEL file/);
    await expect(broken.load()).rejects.toThrow(/cannot load the model: .*not a USEL file/);
    const failure = await broken.embedQuery("anything").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentServicesError);
    expect((failure as AgentServicesError).code).toBe("embedder_failed");
    await broken.close();
  });

  it("fails the call of a thread that dies with embedder_failed, and replaces the thread", async () => {
    const workerUrl = new URL("../../support/crashing-use-lite-worker.mjs", import.meta.url);
    const crashing = new UseLiteEmbedder({ workerUrl });
    await crashing.load();
    for (const text of ["first", "second"]) {
      const failure = await crashing.embedQuery(text).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AgentServicesError);
      expect((failure as AgentServicesError).code).toBe("embedder_failed");
      expect(String((failure as Error).cause)).toMatch(/exited with code 3/);
    }
    await crashing.close();
  });

  it("refuses calls after close()", async () => {
    const embedder = new UseLiteEmbedder();
    await embedder.close();
    await expect(embedder.embedQuery("x")).rejects.toThrow(/after close/);
  });
});
