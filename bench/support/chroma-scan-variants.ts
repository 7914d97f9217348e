/**
 * The cost of reading a whole Chroma collection page by page (the memory service's startup
 * load): page size, with and without embeddings, and pages in flight, with the raw `chromadb`
 * client, plus `ChromaVectorStore.scan` as the service calls it. Used by
 * `bench/chroma-store.ts --scan N`.
 */
import { ChromaClient } from "chromadb";
import type { ChromaVectorStore } from "../../adapters/chroma/chroma-vector-store.js";

/** One printed row. */
export interface ScanRow {
  readonly name: string;
  readonly records: number;
  readonly ms: number;
}

type Include = ("documents" | "metadatas" | "embeddings")[];

/** Reads every record with `inFlight` pages requested at a time; returns how many it read. */
async function readAll(
  get: (offset: number, limit: number, include: Include) => Promise<number>,
  total: number,
  pageSize: number,
  inFlight: number,
  include: Include,
): Promise<number> {
  let next = 0;
  let read = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const offset = next;
        next += pageSize;
        const n = await get(offset, pageSize, include);
        read += n;
      }
    }),
  );
  return read;
}

/** Measures full reads of the collection `name` (holding `total` records). */
export async function measureScanVariants(
  url: string,
  name: string,
  total: number,
  store: ChromaVectorStore,
): Promise<ScanRow[]> {
  const parsed = new URL(url);
  const client = new ChromaClient({ host: parsed.hostname, port: Number(parsed.port) });
  const collection = await client.getCollection({ name });
  const get = async (offset: number, limit: number, include: Include) =>
    (await collection.get({ offset, limit, include })).ids.length;
  const all: Include = ["documents", "metadatas", "embeddings"];
  const rows: ScanRow[] = [];
  const time = async (label: string, run: () => Promise<number>) => {
    const start = performance.now();
    const records = await run();
    rows.push({ name: label, records, ms: performance.now() - start });
    console.error(`  ${label}: ${(performance.now() - start).toFixed(0)} ms`);
  };
  for (const [pageSize, inFlight, include, label] of [
    [1000, 1, all, "pages of 1,000, 1 in flight, with embeddings"],
    [1000, 1, ["documents", "metadatas"], "pages of 1,000, 1 in flight, no embeddings"],
    [1000, 1, ["embeddings"], "pages of 1,000, 1 in flight, embeddings only"],
    [5000, 1, all, "pages of 5,000, 1 in flight, with embeddings"],
    [1000, 4, all, "pages of 1,000, 4 in flight, with embeddings"],
    [5000, 3, all, "pages of 5,000, 3 in flight, with embeddings"],
  ] as const) {
    await time(label, () => readAll(get, total, pageSize, inFlight, [...include]));
  }
  await time("ChromaVectorStore.scan as the service calls it", async () => {
    let read = 0;
    for (let page = await store.scan(undefined, 1000); ; page = await store.scan(page.next, 1000)) {
      read += page.records.length;
      if (page.next === undefined) return read;
    }
  });
  return rows;
}

/** The rows as a Markdown table. */
export function formatScanRows(rows: readonly ScanRow[]): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  return [
    `| ${"full read".padEnd(width)} | records |      ms | records/s |`,
    `| ${"-".repeat(width)} | ------: | ------: | --------: |`,
    ...rows.map(
      (r) =>
        `| ${r.name.padEnd(width)} | ${String(r.records).padStart(7)} | ${r.ms.toFixed(0).padStart(7)} | ${((r.records * 1000) / r.ms).toFixed(0).padStart(9)} |`,
    ),
  ].join("\n");
}
