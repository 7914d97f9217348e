/**
 * Raw figures of the PostgreSQL adapter (`adapters/postgres`) on this machine, against a
 * throwaway PostgreSQL server (tests/support/postgres-server.ts: fsync on, synchronous commit)
 * or `--url`: upsert throughput with 8 concurrent writers of one record each (group commit) and
 * in batches, the paged scan of the service's startup load at 100k and 1M records (and, with
 * `--vector-types`, the same scan with vectors as `real[]` instead of float32 `bytea`), and the
 * change feed's lag from a write to the NOTIFY arriving at another connection.
 *
 * Run:
 *   npx tsx bench/postgres-store.ts [--dims 256] [--scan 100000,1000000] [--vector-types]
 *   npx tsx bench/postgres-store.ts --url postgres://user:pw@host:5432/db
 */
import { loadavg } from "node:os";
import pg from "pg";
import { connectPostgres, type PostgresConnection } from "../adapters/postgres/index.js";
import type { VectorRecord } from "../core/ports/vector-store.js";
import { startPostgresServer, type PostgresServer } from "../tests/support/postgres-server.js";
import { seededRandom } from "./support/seeded-random.js";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const DIMS = Number(option("dims") ?? 256);
const SCANS = (option("scan") ?? "100000,1000000").split(",").map(Number);
const random = seededRandom(7);

function records(prefix: string, n: number): VectorRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(8, "0")}`,
    vector: Array.from({ length: DIMS }, () => random() - 0.5),
    document: `memory ${prefix} ${i}: a sentence of about the usual length for a stored memory`,
    metadata: { type: "fact", scope: "project:bench", created_at: 1_760_000_000_000 + i, n: i },
  }));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function upsertSingle(db: PostgresConnection, total: number): Promise<number> {
  const writers = 8;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (const record of records(`single${w}`, total / writers)) await db.store.upsert([record]);
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

async function upsertBatched(
  db: PostgresConnection,
  batch: number,
  total: number,
  writers: number,
): Promise<number> {
  const batches = Array.from({ length: total / batch }, (_, b) =>
    records(`batch${batch}-${b}`, batch),
  );
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let b = w; b < batches.length; b += writers) await db.store.upsert(batches[b] ?? []);
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

async function fill(db: PostgresConnection, prefix: string, n: number): Promise<void> {
  const chunk = 1000;
  for (let done = 0; done < n; done += chunk * 4) {
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const from = done + k * chunk;
        if (from >= n) return;
        await db.store.upsert(records(`${prefix}${from}`, Math.min(chunk, n - from)));
      }),
    );
  }
}

async function scanAll(db: PostgresConnection, page: number): Promise<{ rows: number; s: number }> {
  const start = performance.now();
  let rows = 0;
  for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
    const result = await db.store.scan(cursor, page);
    rows += result.records.length;
    cursor = result.next;
  }
  return { rows, s: (performance.now() - start) / 1000 };
}

/** The same keyset scan over a copy of the table with vectors as real[]. */
async function scanRealArrays(url: string, page: number): Promise<{ rows: number; s: number }> {
  const client = new pg.Client(url);
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS bench_real;
    CREATE TABLE bench_real (id text COLLATE "C" PRIMARY KEY, document text, metadata jsonb, vector real[])`);
  const source = await connectPostgres(url);
  for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
    const page = await source.store.scan(cursor, 1000);
    await client.query(
      `INSERT INTO bench_real SELECT id, document, metadata, v::real[]
       FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[]) AS u(id, document, metadata, v)`,
      [
        page.records.map((r) => r.id),
        page.records.map((r) => r.document),
        page.records.map((r) => JSON.stringify(r.metadata)),
        page.records.map((r) => `{${r.vector.join(",")}}`),
      ],
    );
    cursor = page.next;
  }
  await source.close();
  const start = performance.now();
  let rows = 0;
  let cursor = "";
  for (;;) {
    const result = await client.query<{ id: string; vector: number[] }>(
      "SELECT id, document, metadata, vector FROM bench_real WHERE id > $1 ORDER BY id LIMIT $2",
      [cursor, page],
    );
    rows += result.rows.length;
    if (result.rows.length < page) break;
    cursor = result.rows[result.rows.length - 1]?.id ?? "";
  }
  const s = (performance.now() - start) / 1000;
  const sizes = await client.query<{ bytea: string; real: string }>(
    "SELECT pg_size_pretty(pg_total_relation_size('memsvc_memories')) AS bytea, pg_size_pretty(pg_total_relation_size('bench_real')) AS real",
  );
  console.log(`  table sizes: bytea ${sizes.rows[0]?.bytea}, real[] ${sizes.rows[0]?.real}`);
  await client.query("DROP TABLE bench_real");
  await client.end();
  return { rows, s };
}

async function feedLag(writer: PostgresConnection, reader: PostgresConnection, n: number) {
  const called = new Map<number, number>();
  const acked = new Map<number, number>();
  const notified = new Map<number, number>();
  const stop = await reader.feed.listen((head) => notified.set(head, performance.now()));
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await writer.store.upsert(records(`lag${i}`, 1));
    const head = await writer.feed.head();
    called.set(head, t);
    acked.set(head, performance.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  await stop();
  const fromCall: number[] = [];
  const fromAck: number[] = [];
  for (const [head, t] of called) {
    const at = notified.get(head);
    if (at === undefined) continue;
    fromCall.push(at - t);
    fromAck.push(at - (acked.get(head) ?? t));
  }
  fromCall.sort((a, b) => a - b);
  fromAck.sort((a, b) => a - b);
  return { delivered: fromCall.length, fromCall, fromAck };
}

async function main(): Promise<void> {
  let server: PostgresServer | undefined;
  let url = option("url");
  if (url === undefined) {
    server = await startPostgresServer();
    url = await server.createDatabase("bench");
  }
  const db = await connectPostgres(url);
  const reader = await connectPostgres(url);
  try {
    await db.migrate();
    await db.store.bind({ embedderId: "bench", dimensions: DIMS }, { replace: true });
    console.log(`PostgreSQL adapter, ${DIMS} dims, load ${loadavg()[0]?.toFixed(1)} (1-min)`);
    console.log(
      `upsert single, 8 writers x 1 record: ${(await upsertSingle(db, 4000)).toFixed(0)} records/s`,
    );
    for (const batch of [100, 1000]) {
      const rate = await upsertBatched(db, batch, 20_000, 4);
      console.log(`upsert batched, 4 writers x ${batch} records: ${rate.toFixed(0)} records/s`);
    }
    const lag = await feedLag(db, reader, 300);
    console.log(
      `feed lag over ${lag.delivered} writes: write call -> NOTIFY at another connection ` +
        `p50 ${percentile(lag.fromCall, 50).toFixed(1)} ms, p99 ${percentile(lag.fromCall, 99).toFixed(1)} ms; ` +
        `commit ack -> NOTIFY p50 ${percentile(lag.fromAck, 50).toFixed(1)} ms, p99 ${percentile(lag.fromAck, 99).toFixed(1)} ms`,
    );
    for (const n of SCANS) {
      const have = await db.store.count();
      const start = performance.now();
      if (have < n) await fill(db, `scan${n}-`, n - have);
      const loadS = (performance.now() - start) / 1000;
      const { rows, s } = await scanAll(db, 1000);
      console.log(
        `scan ${rows} records (page 1000): ${s.toFixed(1)} s, ${(rows / s).toFixed(0)} rows/s` +
          (have < n
            ? ` (filled ${n - have} in ${loadS.toFixed(1)} s, ${((n - have) / loadS).toFixed(0)} records/s)`
            : ""),
      );
      if (process.argv.includes("--vector-types") && n === SCANS[0]) {
        const real = await scanRealArrays(url, 1000);
        console.log(
          `  same scan with vectors as real[]: ${real.s.toFixed(1)} s, ${(real.rows / real.s).toFixed(0)} rows/s (raw pg rows, no decoding into records)`,
        );
      }
    }
  } finally {
    await reader.close();
    await db.close();
    await server?.stop();
  }
}

await main();
