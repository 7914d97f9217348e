import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, type PostgresConnection } from "../../../adapters/postgres/index.js";
import { MemoryService } from "../../../core/memory/index.js";
import { FakeEmbedder, ManualClock } from "../../../core/testing/index.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

let server: PostgresServer;
const open: PostgresConnection[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
}, 120_000);

afterAll(async () => {
  for (const connection of open) await connection.close();
  await server?.stop();
});

describe("MemoryService replicas on one PostgreSQL database", () => {
  it("three replicas: a write on one is on the others, one memory for concurrent duplicates", async () => {
    const url = await server.createDatabase();
    const clock = new ManualClock("2026-11-28T10:00:00Z");
    const replicas = await Promise.all(
      [0, 1, 2].map(async () => {
        const connection = await connectPostgres(url, { poolSize: 4, lockPoolSize: 4 });
        open.push(connection);
        await connection.migrate();
        const service = new MemoryService({
          store: connection.store,
          feed: connection.feed,
          locks: connection.locks,
          embedder: new FakeEmbedder({ dimensions: 8 }),
          clock,
        });
        await service.init();
        return service;
      }),
    );
    const [a, b, c] = replicas as [MemoryService, MemoryService, MemoryService];
    const { id } = await a.remember({ content: "Deploys run on Fridays", type: "rule" });
    await b.follower?.catchUp();
    expect((await b.get(id)).content).toBe("Deploys run on Fridays");
    const answers = await Promise.all(
      replicas.map((r, i) =>
        r.remember({ content: "The build uses pnpm", type: "fact", tags: [`r${i}`] }),
      ),
    );
    expect(new Set(answers.map((x) => x.id)).size).toBe(1);
    await c.follower?.catchUp();
    expect(new Set((await c.get(answers[0]?.id as string)).tags)).toEqual(
      new Set(["r0", "r1", "r2"]),
    );
    for (const r of replicas) await r.follower?.stop();
  });
});
