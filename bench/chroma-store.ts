/**
 * Micro-benchmark of `ChromaVectorStore` against a real embedded Chroma (started in a temp dir),
 * so the cost of each store call can be read off directly: sequential and concurrent single
 * upserts, concurrent metadata updates, get, and the paged scan the service's startup load makes
 * at 1,000 and 10,000 records. Prints one table row per measurement.
 *
 * Run:
 *   npx tsx bench/chroma-store.ts [--dims 1024] [--reps 40]
 *   npx tsx bench/chroma-store.ts --writes [--dims 100]
 *   npx tsx bench/chroma-store.ts --scan 100000 [--dims 100] [--data DIR]
 * `--reps` is the number of calls per query/get measurement (and per worker for writes).
 * `--writes` instead prints the cost of one upsert per layout variant (HNSW settings, metadata
 * keys, document or not, calls in flight; Chroma's and the client's CPU per record), see
 * `bench/support/chroma-write-variants.ts`. `--scan N` loads N records (kept in `--data DIR` for
 * the next run) and prints full reads by page size, with and without embeddings, pages in
 * flight, and through `ChromaVectorStore.scan` (`bench/support/chroma-scan-variants.ts`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedChroma } from "../adapters/chroma/chroma-launcher.js";
import { ChromaVectorStore } from "../adapters/chroma/chroma-vector-store.js";
import type { VectorRecord } from "../core/ports/vector-store.js";
import { formatScanRows, measureScanVariants } from "./support/chroma-scan-variants.js";
import { formatWriteRows, measureWriteVariants } from "./support/chroma-write-variants.js";
import { seededRandom } from "./support/seeded-random.js";
import { intOption } from "./support/int-option.js";

const DIMS = intOption("dims", 1024);
const REPS = intOption("reps", 40);
const PROJECTS = 20;
const NOW = Date.now();
const FOREVER = 8_640_000_000_000_000;

const random = seededRandom(7);

function vector(): number[] {
  const v = Array.from({ length: DIMS }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

let sequence = 0;
/** A memory-shaped record: project, scope, expiry (10% already expired), type, counters. */
function record(id = `r${sequence++}`): VectorRecord {
  const permanent = random() < 0.2;
  return {
    id,
    vector: vector(),
    document: `memory ${id} about deploys, billing and the on-call runbook`,
    metadata: {
      project: `p${Math.floor(random() * PROJECTS)}`,
      scope: permanent ? "permanent" : "project",
      expires_at_ms: permanent ? FOREVER : NOW + (random() < 0.1 ? -1 : 1) * 86_400_000,
      type: "fact",
      content_hash: `h${id}`,
      access_count: 0,
      created_at_ms: NOW,
    },
  };
}

interface Row {
  readonly name: string;
  readonly ops: number;
  readonly ms: number;
  /** Mean latency of one call as its caller sees it (differs from ms/op under concurrency). */
  readonly latencyMs: number;
}
const rows: Row[] = [];

/** Runs `workers` loops of `perWorker` calls each and records throughput and mean latency. */
async function measure(
  name: string,
  workers: number,
  perWorker: number,
  call: () => Promise<unknown>,
): Promise<void> {
  let latency = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; i < perWorker; i += 1) {
        const t = performance.now();
        await call();
        latency += performance.now() - t;
      }
    }),
  );
  const ms = performance.now() - start;
  const ops = workers * perWorker;
  rows.push({ name, ops, ms, latencyMs: latency / ops });
  console.error(`  ${name}: ${(ms / ops).toFixed(2)} ms/op`);
}

async function loadTo(store: ChromaVectorStore, target: number): Promise<void> {
  while (sequence < target) {
    const batch = Array.from({ length: Math.min(1000, target - sequence) }, () => record());
    await store.upsert(batch);
  }
}

/** The startup load: scan every record with its vector, page by page. */
async function scanAll(store: ChromaVectorStore, size: string): Promise<void> {
  await measure(`${size}: scan every record (pages of 1000, with vectors)`, 1, 3, async () => {
    for (let page = await store.scan(undefined, 1000); page.next !== undefined;) {
      page = await store.scan(page.next, 1000);
    }
  });
}

async function writes(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-chroma-writes-"));
  const chroma = await startEmbeddedChroma({ path: join(dir, "data") });
  try {
    console.error(
      `embedded Chroma at ${chroma.url}, ${DIMS} dims; loadavg ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const rows = await measureWriteVariants(chroma.url, chroma.pid, DIMS);
    console.log(formatWriteRows(rows));
    console.log(
      `loadavg at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await chroma.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scans(total: number): Promise<void> {
  const at = process.argv.indexOf("--data");
  const kept = at === -1 ? undefined : process.argv[at + 1];
  const dir = kept ?? mkdtempSync(join(tmpdir(), "bench-chroma-scan-"));
  const chroma = await startEmbeddedChroma({ path: join(dir, "data") });
  const store = new ChromaVectorStore({ url: chroma.url, collection: "bench-scan" });
  try {
    await store.bind({ embedderId: "bench", dimensions: DIMS });
    sequence = await store.count();
    while (sequence < total) {
      await store.upsert(Array.from({ length: Math.min(5000, total - sequence) }, () => record()));
      console.error(`  loaded ${sequence}`);
    }
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(" ");
    console.error(
      `embedded Chroma at ${chroma.url}, ${total} records of ${DIMS} dims; loadavg ${load()}`,
    );
    console.log(formatScanRows(await measureScanVariants(chroma.url, "bench-scan", total, store)));
    console.log(`loadavg at end ${load()}`);
  } finally {
    await store.close();
    await chroma.stop();
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-chroma-store-"));
  const chroma = await startEmbeddedChroma({ path: join(dir, "data") });
  const store = new ChromaVectorStore({ url: chroma.url, collection: "bench" });
  try {
    await store.bind({ embedderId: "bench", dimensions: DIMS });
    console.error(`embedded Chroma at ${chroma.url}, ${DIMS} dims, ${REPS} reps`);

    await measure("upsert 1 new record, sequential", 1, REPS, () => store.upsert([record()]));
    await measure("upsert 1 existing record, sequential", 1, REPS, () =>
      store.upsert([record("r0")]),
    );
    await measure("upsert 1 new record, 8 concurrent", 8, REPS, () => store.upsert([record()]));
    await measure("upsert 1 new record, 32 concurrent", 32, Math.ceil(REPS / 2), () =>
      store.upsert([record()]),
    );
    await measure("upsert batch of 50 new records (per call)", 1, 5, () =>
      store.upsert(Array.from({ length: 50 }, () => record())),
    );
    const ids = (n: number) => Array.from({ length: n }, () => `r${Math.floor(random() * 500)}`);
    await measure("updateMetadata 1 id, sequential", 1, REPS, () =>
      store.updateMetadata([{ id: ids(1)[0] ?? "r0", metadata: { access_count: 1 } }]),
    );
    await measure("updateMetadata 10 ids, 8 concurrent", 8, REPS, () =>
      store.updateMetadata(ids(10).map((id) => ({ id, metadata: { last_accessed_ms: NOW } }))),
    );

    await loadTo(store, 1_000);
    await measure("1k: get 1 id", 1, REPS, () => store.get(ids(1)));
    await measure("1k: get 10 ids", 1, REPS, () => store.get(ids(10)));
    await scanAll(store, "1k");
    await loadTo(store, 10_000);
    await scanAll(store, "10k");
  } finally {
    await store.close();
    await chroma.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `| ${"measurement".padEnd(width)} |  ops | ms/op |  ops/s | mean latency ms |\n` +
      `| ${"-".repeat(width)} | ---: | ----: | -----: | --------------: |`,
  );
  for (const row of rows) {
    console.log(
      `| ${row.name.padEnd(width)} | ${String(row.ops).padStart(4)} | ${(row.ms / row.ops)
        .toFixed(2)
        .padStart(5)} | ${((row.ops * 1000) / row.ms).toFixed(0).padStart(6)} | ${row.latencyMs
        .toFixed(2)
        .padStart(15)} |`,
    );
  }
}

await (process.argv.includes("--writes")
  ? writes()
  : process.argv.includes("--scan")
    ? scans(intOption("scan", 100_000))
    : main());
