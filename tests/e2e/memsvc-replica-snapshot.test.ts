import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, startMemsvc } from "../support/spawn-memsvc.js";
import { startPostgresServer, type PostgresServer } from "../support/postgres-server.js";

/**
 * `memsvc serve` on PostgreSQL saves its engines at SIGTERM (in `./data/replica` by default) and
 * the next start in the same directory loads them and catches up from the change feed: what
 * another replica wrote meanwhile is there (issue 21, restart to ready).
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
});
