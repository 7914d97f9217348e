/**
 * The engine snapshot's restore and save alone, in process, over a snapshot file that
 * `bench/memory-million.ts --keep-snapshot DIR` kept: times reading it (with its CRC-32),
 * restoring every tenant's engine, then `--adds` new memories into the first engine (what the
 * catch-up from the change feed does right after a restore), then taking the images and saving
 * them to a temporary directory (the save at a replica's stop). Prints each phase's wall and CPU
 * time and the RSS. Run under `node --cpu-prof` to profile a phase alone.
 *
 * Run: npx tsx bench/snapshot-restore.ts --dir DIR [--adds 1000] [--no-save] [--no-place (read every array
 *   into a new one, as before the placer)]
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SCHEMA_VERSION } from "../adapters/postgres/postgres-migrations.js";
import {
  FileReplicaSnapshots,
  REPLICA_SNAPSHOT_FILE,
} from "../adapters/system/file-replica-snapshots.js";
import { MemoryEngine } from "../core/memory/engine/memory-engine.js";
import { DEFAULT_MEMORY_SERVICE_OPTIONS } from "../core/memory/index.js";
import { newMemory } from "../core/memory/model/new-memory.js";
import { parseInput } from "../core/memory/model/parse-input.js";
import { rememberInputSchema } from "../core/memory/model/schemas.js";
import { createHybridIndex } from "../core/retrieval/hybrid-index.js";
import { tenantImagesPlacer } from "../core/tenancy/replica-snapshot.js";
import { memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    adds: { type: "string", default: "1000" },
    "no-save": { type: "boolean", default: false },
    "no-place": { type: "boolean", default: false },
  },
});
if (values.dir === undefined) throw new Error("--dir DIR (where memory-million kept a snapshot)");

const cpu = () => {
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  return (userCPUTime + systemCPUTime) / 1e6;
};
const rss = () => (process.memoryUsage().rss / 1048576).toFixed(0);
let wall = performance.now();
let used = cpu();
function phase(what: string): void {
  const [nowWall, nowCpu] = [performance.now(), cpu()];
  console.log(
    `${what}: ${((nowWall - wall) / 1000).toFixed(2)} s wall, ${(nowCpu - used).toFixed(2)} CPU s; RSS ${rss()} MB`,
  );
  [wall, used] = [nowWall, nowCpu];
}

const snapshots = new FileReplicaSnapshots(values.dir, {
  storeId: `postgres schema ${SCHEMA_VERSION}`,
  warn: (message) => console.error(message),
});
const saved = await snapshots.load();
if (saved === undefined) throw new Error("no usable snapshot");
const tenants = await saved.tenants(
  values["no-place"] ? undefined : tenantImagesPlacer(saved.space.dimensions),
);
phase(`read ${(statSync(join(values.dir, REPLICA_SNAPSHOT_FILE)).size / 1048576).toFixed(0)} MB`);
const engines = tenants.map(({ tenant, image }) => {
  const engine = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
  if (!engine.restore(image)) throw new Error(`tenant ${tenant}: image refused`);
  return engine;
});
phase(`restore ${engines.reduce((sum, engine) => sum + engine.size, 0)} memories`);

const random = seededRandom(7);
const corpus = memoryLoadCorpus(random);
const first = engines[0];
const dims = saved.space.dimensions;
for (let i = 0; i < Number(values.adds) && first !== undefined; i += 1) {
  const memory = newMemory(
    parseInput(rememberInputSchema, corpus.memoryBody(i)),
    randomUUID(),
    Date.now(),
    DEFAULT_MEMORY_SERVICE_OPTIONS,
  );
  const vector = Array.from({ length: dims }, () => random() - 0.5);
  first.add(memory, `hash-${i}`, vector);
}
phase(`${values.adds} adds after the restore`);

if (!values["no-save"]) {
  const images = engines.map((engine, i) => ({
    tenant: tenants[i]?.tenant ?? "",
    image: engine.image() ?? (undefined as never),
  }));
  phase("images (compaction)");
  const out = mkdtempSync(join(tmpdir(), "snapshot-restore-"));
  try {
    await new FileReplicaSnapshots(out, { storeId: "bench" }).save({ ...saved, tenants: images });
    phase("save");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
