import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, startMemsvc } from "../support/spawn-memsvc.js";
import { startPostgresServer, type PostgresServer } from "../support/postgres-server.js";

/**
 * `memsvc serve` on PostgreSQL saves its engines at SIGTERM (in `./data/replica` by default) and
 * the next start in the same directory loads them and catches up from the change feed: what
 * another replica wrote meanwhile is there (issue 21, restart to ready). A save that fails (a
 * full disk) leaves the previous snapshot and nothing else.
 */
let postgres: PostgresServer;

beforeAll(async () => {
  postgres = await startPostgresServer();
}, 120_000);

afterAll(async () => {
  await cleanupMemsvc();
  await postgres?.stop();
});

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe("memsvc replica restart from its engine snapshot", () => {
  it("loads the snapshot saved at SIGTERM and applies what was written while it was down", async () => {
    const url = await postgres.createDatabase();
    const env = { MEMSVC_VECTOR_STORE_PROVIDER: "postgres", MEMSVC_VECTOR_STORE_POSTGRES_URL: url };
    const dir = makeTempDir();
    const first = await startMemsvc({ dataDir: dir, env });
    await post(first.baseUrl, "/v1/remember", { content: "Deploys run on Fridays", type: "rule" });
    expect((await first.stop()).code).toBe(0);
    expect(first.stderr()).toMatch(/engine snapshot saved/);
    expect(existsSync(join(dir, "data", "replica", "replica-engines.snapshot"))).toBe(true);

    const other = await startMemsvc({
      env: { ...env, MEMSVC_VECTOR_STORE_POSTGRES_SNAPSHOT_DIR: "off" },
    });
    const { id } = await post(other.baseUrl, "/v1/remember", { content: "The build uses pnpm" });
    await other.stop();

    const again = await startMemsvc({ dataDir: dir, env });
    expect(again.stderr()).toMatch(/"msg":"memories loaded".*"from":"snapshot"/);
    const found = await post(again.baseUrl, "/v1/search", { message: "pnpm build" });
    const results = found["results"] as { memory: { id: string } }[];
    expect(results.map((r) => r.memory.id)).toContain(id);
    await again.stop();
  }, 120_000);

  it("says at start that its snapshot directory is not writable, and serves all the same", async () => {
    const url = await postgres.createDatabase();
    const dir = makeTempDir();
    // A file where the directory's parent should be: no user, root included, can make it.
    writeFileSync(join(dir, "not-a-directory"), "");
    const snapshotDir = join(dir, "not-a-directory", "replica");
    const replica = await startMemsvc({
      env: {
        MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
        MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
        MEMSVC_VECTOR_STORE_POSTGRES_SNAPSHOT_DIR: snapshotDir,
      },
    });
    const warning = replica
      .stderr()
      .split("\n")
      .find((line) => line.includes("snapshot directory is not writable"));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning as string)).toMatchObject({
      level: "warn",
      snapshot_dir: snapshotDir,
      error: expect.stringMatching(/\(ENOTDIR\)$/) as unknown,
    });
    await post(replica.baseUrl, "/v1/remember", { content: "Deploys run on Fridays" });
    expect((await replica.stop()).code).toBe(0);
  }, 120_000);

  it("a save that fails for want of space leaves the previous snapshot, and no partial file", async () => {
    const url = await postgres.createDatabase();
    const env = { MEMSVC_VECTOR_STORE_PROVIDER: "postgres", MEMSVC_VECTOR_STORE_POSTGRES_URL: url };
    const dir = makeTempDir();
    const snapshotDir = join(dir, "data", "replica");
    const note = (i: number) => ({
      content: `Runbook step ${i}: drain node ${i} before the kernel upgrade`,
      type: "procedure",
      scope: "permanent",
    });
    const first = await startMemsvc({ dataDir: dir, env });
    await post(first.baseUrl, "/v1/remember/batch", {
      memories: Array.from({ length: 300 }, (_, i) => note(i)),
    });
    expect((await first.stop()).code).toBe(0);
    expect(readdirSync(snapshotDir)).toEqual(["replica-engines.snapshot"]);

    // Files over 32 KiB cannot be written: the next save fails part-way, as on a full disk.
    const cramped = await startMemsvc({ dataDir: dir, env, fileSizeLimit: 64 });
    expect(cramped.stderr()).toMatch(/"msg":"memories loaded".*"from":"snapshot"/);
    const { memories } = await post(cramped.baseUrl, "/v1/remember/batch", {
      memories: Array.from({ length: 20 }, (_, i) => note(300 + i)),
    });
    expect((await cramped.stop()).code).toBe(0);
    expect(cramped.stderr()).toMatch(/"msg":"saving the engine snapshot failed/);
    expect(readdirSync(snapshotDir)).toEqual(["replica-engines.snapshot"]);

    // The previous snapshot still serves, and the feed brings what was written after it.
    const again = await startMemsvc({ dataDir: dir, env });
    expect(again.stderr()).toMatch(/"msg":"memories loaded".*"from":"snapshot"/);
    const stats = (await (await fetch(`${again.baseUrl}/v1/stats`)).json()) as {
      total_memories: number;
    };
    expect(stats.total_memories).toBe(320);
    const last = (memories as { id: string }[]).at(-1)?.id;
    expect((await fetch(`${again.baseUrl}/v1/memories/${String(last)}`)).status).toBe(200);
    await again.stop();
  }, 120_000);
});
