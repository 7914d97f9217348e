/**
 * Write-cost variants of a Chroma collection, measured with the raw `chromadb` client so that
 * each factor can be switched on its own: the HNSW settings, how many metadata keys a record
 * has, whether the content is stored as Chroma's `document` (which Chroma also indexes for
 * full-text search), several write calls in flight, and the client's own CPU. Used by
 * `bench/chroma-store.ts --writes`.
 *
 * Chroma's CPU is read from `/proc/<pid>/stat` (all its threads), so on a loaded machine the
 * CPU columns stay meaningful when the wall-clock ones do not.
 */
import { readFileSync } from "node:fs";
import { ChromaClient, type Collection } from "chromadb";
import { seededRandom } from "./seeded-random.js";

const random = seededRandom(11);
const NOW = Date.now();

/** One way of writing a memory-shaped record. */
interface Variant {
  readonly name: string;
  readonly hnsw: Record<string, number | string>;
  /** `flat`: the 16 keys of the memory layout; `packed`: 5 filterable keys and one JSON key. */
  readonly layout: "flat" | "packed";
  /** Whether the content is Chroma's document (else it rides in the JSON key). */
  readonly document: boolean;
}

const LOW_HNSW = { space: "cosine", ef_construction: 16, max_neighbors: 4, sync_threshold: 10_000 };
const VARIANTS: readonly Variant[] = [
  {
    name: "today (16 keys, document, HNSW defaults)",
    hnsw: { space: "cosine" },
    layout: "flat",
    document: true,
  },
  { name: "HNSW lowered", hnsw: LOW_HNSW, layout: "flat", document: true },
  { name: "6 keys (5 + JSON)", hnsw: { space: "cosine" }, layout: "packed", document: true },
  { name: "no document", hnsw: { space: "cosine" }, layout: "flat", document: false },
  { name: "6 keys, no document", hnsw: { space: "cosine" }, layout: "packed", document: false },
  { name: "all three", hnsw: LOW_HNSW, layout: "packed", document: false },
];

function vector(dims: number): number[] {
  const v = Array.from({ length: dims }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function flatMetadata(id: string): Record<string, string | number> {
  const iso = new Date(NOW).toISOString();
  return {
    memory_v: 1,
    type: "fact",
    scope: "project",
    project: `p${id.length % 20}`,
    tags: '["ops","billing"]',
    confidence: 0.9,
    access_count: 0,
    created_at: iso,
    created_at_ms: NOW,
    updated_at: iso,
    updated_at_ms: NOW,
    last_accessed: iso,
    last_accessed_ms: NOW,
    expires_at: new Date(NOW + 86_400_000).toISOString(),
    expires_at_ms: NOW + 86_400_000,
    content_hash: "9f2c".repeat(16),
  };
}

let sequence = 0;
function batch(variant: Variant, n: number, dims: number) {
  const ids = Array.from({ length: n }, () => `w${sequence++}`);
  const content = (id: string) => `memory ${id}: deploys run on Fridays after the billing freeze`;
  const metadatas = ids.map((id) => {
    const flat = flatMetadata(id);
    if (variant.layout === "flat")
      return variant.document ? flat : { ...flat, content: content(id) };
    const { type, scope, project, expires_at_ms, content_hash, ...rest } = flat;
    const packed = variant.document ? rest : { ...rest, content: content(id) };
    return { type, scope, project, expires_at_ms, content_hash, m: JSON.stringify(packed) };
  });
  return {
    ids,
    embeddings: ids.map(() => vector(dims)),
    metadatas,
    ...(variant.document ? { documents: ids.map(content) } : {}),
  };
}

function cpuMs(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A printed row: wall ms per call and per record, and CPU of Chroma and of this client. */
export interface WriteRow {
  readonly name: string;
  readonly calls: number;
  readonly records: number;
  readonly wallMs: number;
  readonly chromaCpuMs: number;
  readonly clientCpuMs: number;
}

async function timeCalls(
  name: string,
  pid: number,
  calls: number,
  inFlight: number,
  call: () => Promise<number>,
): Promise<WriteRow> {
  const chroma0 = cpuMs(pid);
  const client0 = process.cpuUsage();
  const start = performance.now();
  let records = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = 0; i < calls / inFlight; i += 1) {
        const n = await call();
        records += n;
      }
    }),
  );
  const client = process.cpuUsage(client0);
  return {
    name,
    calls,
    records,
    wallMs: performance.now() - start,
    chromaCpuMs: cpuMs(pid) - chroma0,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

/**
 * Measures every variant on its own collection (prefilled with 2,000 records): sequential
 * upserts of 1 record and of 1,000, then 1 record × 8 in flight and 250 × 4 in flight.
 */
export async function measureWriteVariants(
  url: string,
  chromaPid: number,
  dims: number,
): Promise<WriteRow[]> {
  const parsed = new URL(url);
  const client = new ChromaClient({ host: parsed.hostname, port: Number(parsed.port) });
  const rows: WriteRow[] = [];
  for (const [i, variant] of VARIANTS.entries()) {
    const collection: Collection = await client.createCollection({
      name: `variant-${i}`,
      embeddingFunction: null,
      configuration: { hnsw: variant.hnsw as never },
    });
    const upsert = async (n: number) => {
      await collection.upsert(batch(variant, n, dims) as never);
      return n;
    };
    await upsert(1000);
    await upsert(1000);
    const label = (what: string) => `${variant.name}: ${what}`;
    rows.push(await timeCalls(label("1 record, sequential"), chromaPid, 20, 1, () => upsert(1)));
    rows.push(
      await timeCalls(label("1,000 records, sequential"), chromaPid, 3, 1, () => upsert(1000)),
    );
    rows.push(await timeCalls(label("1 record, 8 in flight"), chromaPid, 24, 8, () => upsert(1)));
    rows.push(
      await timeCalls(label("250 records, 4 in flight"), chromaPid, 8, 4, () => upsert(250)),
    );
    console.error(`  measured ${variant.name}`);
  }
  return rows;
}

/** The rows as a Markdown table. */
export function formatWriteRows(rows: readonly WriteRow[]): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = [
    `| ${"upsert variant".padEnd(width)} | calls | wall ms/call | wall ms/record | Chroma CPU ms/call | Chroma CPU ms/record | client CPU ms/record |`,
    `| ${"-".repeat(width)} | ----: | -----------: | -------------: | -----------------: | -------------------: | -------------------: |`,
  ];
  for (const r of rows) {
    const cells = [
      r.calls,
      r.wallMs / r.calls,
      r.wallMs / r.records,
      r.chromaCpuMs / r.calls,
      r.chromaCpuMs / r.records,
      r.clientCpuMs / r.records,
    ].map((v, i) => (i === 0 ? String(v).padStart(5) : v.toFixed(i === 1 || i === 3 ? 1 : 3)));
    lines.push(`| ${r.name.padEnd(width)} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}
