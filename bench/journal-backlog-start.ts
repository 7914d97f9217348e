/**
 * Start time of the owner's store after a crash left a backlog in the write journal: a real
 * embedded Chroma (temp dir), a `FileWriteJournal` holding `--ids` single-record upserts (one
 * per remember, 100 dimensions: the default local embedder) that Chroma never got, then what a
 * start does: open the journal (read and check every frame) and replay it into Chroma, until
 * `bind` returns. Then the same with the applied mark: the store took all but the last
 * `--tail` ids before the crash, so a start replays only those.
 *
 * Run:
 *   npx tsx bench/journal-backlog-start.ts [--ids 50000] [--tail 2000]
 * Prints one line per phase (ms, ids/s) and the load average.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedChroma } from "../adapters/chroma/chroma-launcher.js";
import { ChromaVectorStore } from "../adapters/chroma/chroma-vector-store.js";
import { FileWriteJournal } from "../adapters/system/file-write-journal.js";
import { JournaledVectorStore } from "../core/storage/journaled-vector-store.js";
import type { JournalEntry } from "../core/ports/write-journal.js";
import { seededRandom } from "./support/seeded-random.js";
import { intOption } from "./support/int-option.js";

const IDS = intOption("ids", 50_000);
const TAIL = intOption("tail", 2_000);
const DIMS = 100;
const SPACE = { embedderId: "bench", dimensions: DIMS };
const random = seededRandom(11);

function entry(i: number): JournalEntry {
  const v = Array.from({ length: DIMS }, () => random() * 2 - 1);
  return {
    op: "upsert",
    records: [
      {
        id: `m${i}`,
        vector: v,
        document: `memory number ${i} about the deployment of service ${i % 97}`,
        metadata: { type: "fact", confidence: 0.8, created_at: "2026-01-01T00:00:00.000Z" },
      },
    ],
  };
}

/** Appends `count` entries from `from` on, 64 appends in flight (group commit, as under load). */
async function fill(journal: FileWriteJournal, from: number, count: number): Promise<number> {
  let last = 0;
  for (let i = from; i < from + count; i += 64) {
    const batch = Array.from({ length: Math.min(64, from + count - i) }, (_, k) => entry(i + k));
    const positions = await Promise.all(batch.map((e) => journal.append([e])));
    last = positions.at(-1) ?? last;
  }
  return last;
}

async function timedStart(
  journalDir: string,
  url: string,
  collection: string,
): Promise<{ ms: number; openMs: number }> {
  const started = performance.now();
  const journal = new FileWriteJournal(journalDir);
  let openMs = 0;
  const timedJournal = Object.assign(Object.create(journal) as FileWriteJournal, {
    open: async () => {
      const at = performance.now();
      const entries = await journal.open();
      openMs = performance.now() - at;
      return entries;
    },
    append: journal.append.bind(journal),
    discardThrough: journal.discardThrough.bind(journal),
    close: journal.close.bind(journal),
  });
  const store = new JournaledVectorStore(new ChromaVectorStore({ url, collection }), timedJournal, {
    retryDelay: () => new Promise((resolve) => setTimeout(resolve, 100)),
  });
  await store.bind(SPACE);
  const ms = performance.now() - started;
  await store.close();
  return { ms, openMs };
}

const dir = mkdtempSync(join(tmpdir(), "bench-journal-start-"));
const chroma = await startEmbeddedChroma({ path: join(dir, "chroma") });
try {
  const direct = new ChromaVectorStore({ url: chroma.url, collection: "backlog" });
  await direct.bind(SPACE);
  await direct.close();

  // 1. A crash with the whole backlog pending.
  const full = join(dir, "journal-full");
  const first = new FileWriteJournal(full);
  await first.open();
  const filledAt = performance.now();
  await fill(first, 0, IDS);
  const fillMs = performance.now() - filledAt;
  // No close: the process "crashed" (the marks say nothing reached the store).
  const cold = await timedStart(full, chroma.url, "backlog");
  console.log(
    `journal filled: ${IDS} ids in ${fillMs.toFixed(0)} ms (${((IDS / fillMs) * 1000).toFixed(0)} ids/s, group commit)`,
  );
  console.log(
    `start after a ${IDS}-id backlog: ${cold.ms.toFixed(0)} ms (journal open ${cold.openMs.toFixed(0)} ms, replay ${(cold.ms - cold.openMs).toFixed(0)} ms, ${((IDS / cold.ms) * 1000).toFixed(0)} ids/s into Chroma)`,
  );

  // 2. A crash after the store took all but the last TAIL ids (the applied mark).
  const marked = join(dir, "journal-marked");
  const second = new FileWriteJournal(marked, { markIntervalMs: 1 });
  await second.open();
  const last = await fill(second, IDS, IDS);
  await second.discardThrough(last - TAIL);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the marks' rewrite
  const warm = await timedStart(marked, chroma.url, "backlog");
  console.log(
    `start after a ${IDS}-id segment of which the store had all but ${TAIL}: ${warm.ms.toFixed(0)} ms (journal open ${warm.openMs.toFixed(0)} ms; only the ${TAIL} are replayed)`,
  );
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await chroma.stop();
  rmSync(dir, { recursive: true, force: true });
}
