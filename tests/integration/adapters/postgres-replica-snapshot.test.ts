import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectPostgres,
  SCHEMA_VERSION,
  type PostgresConnection,
  type PostgresConnectionOptions,
} from "../../../adapters/postgres/index.js";
import { FileReplicaSnapshots, REPLICA_SNAPSHOT_FILE } from "../../../adapters/system/index.js";
import { MemoryService } from "../../../core/memory/index.js";
import { TenantSpace } from "../../../core/tenancy/index.js";
import { FakeEmbedder, ManualClock } from "../../../core/testing/index.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

let server: PostgresServer;
const open: PostgresConnection[] = [];
const clock = new ManualClock("2026-11-28T10:00:00Z");
const embedder = new FakeEmbedder({ dimensions: 8 });
const space = { embedderId: embedder.id, dimensions: embedder.dimensions };
const WORDS = ["deploy", "friday", "getUserName", "pnpm", "Straße", "café", "東京", "v1.2", "ops"];

beforeAll(async () => {
  server = await startPostgresServer();
}, 120_000);

afterAll(async () => {
  for (const connection of open) await connection.close().catch(() => undefined);
  await server?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface Replica {
  readonly tenants: TenantSpace;
  readonly warnings: string[];
  stop(save?: boolean): Promise<boolean>;
}

/** A replica on `url` (a TenantSpace as the service builds it), with snapshots in `dir` if given. */
async function startReplica(
  url: string,
  dir?: string,
  options: PostgresConnectionOptions = {},
): Promise<Replica> {
  const connection = await connectPostgres(url, { poolSize: 4, lockPoolSize: 4, ...options });
  open.push(connection);
  await connection.migrate();
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const tenants = new TenantSpace({
    store: connection.store,
    space,
    feed: connection.feed,
    replicaSnapshots:
      dir === undefined
        ? undefined
        : new FileReplicaSnapshots(dir, { storeId: `postgres schema ${SCHEMA_VERSION}`, warn }),
    warn,
    newId: () => globalThis.crypto.randomUUID(),
    create: (parts) =>
      new MemoryService({
        store: parts.store,
        embedder,
        clock,
        ...(parts.feed === undefined ? {} : { feed: parts.feed }),
        locks: connection.locks,
        idsTakenElsewhere: parts.idsTakenElsewhere,
      }),
  });
  await tenants.init();
  return {
    tenants,
    warnings,
    async stop(save = true) {
      await tenants.stopFollowers();
      const saved = save ? await tenants.saveSnapshot() : false;
      await connection.close();
      return saved;
    },
  };
}

const contentArb = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 })
  .map((words) => words.join(" "));
const opArb = fc.record({
  kind: fc.constantFrom("remember", "remember", "delete", "patch", "recall"),
  tenant: fc.constantFrom("default", "default", "acme", "beta"),
  content: contentArb,
  project: fc.constantFrom("", "billing", "search"),
  pick: fc.nat(),
});
type Op = typeof opArb extends fc.Arbitrary<infer O> ? O : never;

/** Applies writes, deletes, patches and counted recalls through a replica. */
async function applyOps(replica: Replica, ops: readonly Op[]): Promise<void> {
  for (const op of ops) {
    const service = await replica.tenants.service(op.tenant);
    const page = await service.list({ limit: 1000 });
    const target = page.memories[op.pick % Math.max(1, page.memories.length)];
    if (op.kind === "remember" || target === undefined) {
      await service.remember({
        content: `${op.content} ${op.pick}`,
        project: op.project,
        tags: [op.tenant],
      });
    } else if (op.kind === "delete") {
      await service.delete(target.id);
    } else if (op.kind === "patch") {
      await service.update(target.id, { project: op.project, tags: ["patched"], confidence: 0.5 });
    } else {
      await service.recall({ message: op.content });
      await service.flushAccessUpdates();
    }
  }
}

/**
 * Everything a client can read of a replica, tenant by tenant (every tenant that ever had a
 * memory: one whose memories were all deleted reads as empty, whether or not the replica still
 * holds a service for it).
 */
async function readAll(replica: Replica) {
  for (const service of replica.tenants.services) await service.follower?.catchUp();
  const out: Record<string, unknown> = { tenants: await replica.tenants.counts() };
  for (const tenant of ["default", "acme", "beta"]) {
    const service = await replica.tenants.service(tenant);
    await service.follower?.catchUp();
    out[tenant] = {
      stats: await service.stats(),
      list: await service.list({ limit: 1000, order: "oldest" }),
      searches: await Promise.all(
        [...WORDS, "deploy friday pnpm", "ops 東京"].flatMap((message) =>
          ["", "billing"].map((project) =>
            service.search({ message, limit: 20, ...(project ? { project } : {}) }),
          ),
        ),
      ),
      recall: await service.recall({ message: "deploy pnpm" }, { countAccesses: false }),
    };
  }
  return out;
}

/** A tenant all of whose memories were deleted while the replica was down (found by the property). */
const REGRESSION_BEFORE: Op[] = [
  { kind: "remember", tenant: "default", content: "deploy", project: "", pick: 0 },
  { kind: "remember", tenant: "beta", content: "deploy", project: "", pick: 0 },
];
const REGRESSION_WHILE_DOWN: Op[] = [
  { kind: "delete", tenant: "beta", content: "deploy", project: "", pick: 0 },
  { kind: "remember", tenant: "default", content: "deploy", project: "", pick: 0 },
];

const dirs: string[] = [];
async function snapshotDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "memsvc-replica-snapshot-"));
  dirs.push(dir);
  return dir;
}

describe("a replica restarted from its engine snapshot (issue 21)", () => {
  it("equals a fresh load after writes, deletes and patches made while it was down", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 5, maxLength: 25 }),
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        async (before, whileDown) => {
          const url = await server.createDatabase();
          const dir = await snapshotDir();
          const first = await startReplica(url, dir);
          await applyOps(first, before);
          expect(await first.stop()).toBe(true);
          const writer = await startReplica(url);
          await applyOps(writer, whileDown);
          await writer.stop(false);
          const restarted = await startReplica(url, dir);
          const fresh = await startReplica(url);
          try {
            expect(restarted.warnings).toEqual([]);
            expect(restarted.tenants.loadedFrom).toBe("snapshot");
            expect(fresh.tenants.loadedFrom).toBe("store");
            expect(await readAll(restarted)).toEqual(await readAll(fresh));
            expect(restarted.warnings).toEqual([]);
          } finally {
            await restarted.stop(false);
            await fresh.stop(false);
          }
        },
      ),
      { numRuns: 8, examples: [[REGRESSION_BEFORE, REGRESSION_WHILE_DOWN]] },
    );
  }, 600_000);

  it("loads the whole store when the snapshot file is missing or corrupt", async () => {
    const url = await server.createDatabase();
    const dir = await snapshotDir();
    const first = await startReplica(url, dir);
    await applyOps(first, fc.sample(opArb, 20));
    expect(await first.stop()).toBe(true);
    const missing = await startReplica(url, await snapshotDir());
    expect(missing.tenants.loadedFrom).toBe("store");
    await missing.stop(false);
    const path = join(dir, REPLICA_SNAPSHOT_FILE);
    const bytes = await readFile(path);
    bytes[20] = (bytes[20] as number) ^ 0xff;
    await writeFile(path, bytes);
    const corrupt = await startReplica(url, dir);
    expect(corrupt.tenants.loadedFrom).toBe("store");
    expect(corrupt.warnings.join("\n")).toMatch(/CRC-32 mismatch/);
    await corrupt.stop(false);
  }, 120_000);

  it("loads the whole store when the snapshot is of another database", async () => {
    const dir = await snapshotDir();
    const first = await startReplica(await server.createDatabase(), dir);
    await applyOps(first, fc.sample(opArb, 10));
    expect(await first.stop()).toBe(true);
    const otherUrl = await server.createDatabase();
    const writer = await startReplica(otherUrl);
    await applyOps(writer, fc.sample(opArb, 40));
    await writer.stop(false);
    const other = await startReplica(otherUrl, dir);
    expect(other.tenants.loadedFrom).toBe("store");
    expect(other.warnings.join("\n")).toMatch(/another database/);
    await other.stop(false);
  }, 120_000);

  it("loads the whole store when the feed was pruned past the snapshot's change", async () => {
    const url = await server.createDatabase();
    const dir = await snapshotDir();
    const first = await startReplica(url, dir);
    await applyOps(first, fc.sample(opArb, 10));
    expect(await first.stop()).toBe(true);
    const pruning = { retention: { keepChanges: 1, keepMs: 0, pruneEvery: 1 } };
    const writer = await startReplica(url, undefined, pruning);
    await applyOps(writer, fc.sample(opArb, 10));
    await writer.stop(false);
    const restarted = await startReplica(url, dir);
    const fresh = await startReplica(url);
    expect(restarted.tenants.loadedFrom).toBe("store");
    expect(restarted.warnings.join("\n")).toMatch(/no longer holds change/);
    expect(await readAll(restarted)).toEqual(await readAll(fresh));
    await restarted.stop(false);
    await fresh.stop(false);
  }, 120_000);
});
