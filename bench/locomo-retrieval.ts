/**
 * Retrieval quality on LoCoMo (snap-research/LoCoMo, `locomo10.json`; the data stays out of the
 * repository, its path is the first argument). Each turn is stored as an `episode` memory with
 * content `"<speaker>: <text>"`; the 1,536 questions of categories 1-4 with usable evidence are
 * asked with limit 10. Prints evidence recall@5, recall@10 and MRR@10 of search; of plain BM25
 * (classic BM25, k1 1.2, b 0.75, over the index's terms: stop list, stemmer, compounds); of BM25+
 * alone (the index's lexical side, delta 1); and of textbook BM25 (classic, over lower-cased
 * words and nothing else), all over the same turns, overall and per category, in two settings:
 * each conversation its own project (a question sees its own conversation), and all turns permanent (every question sees
 * all 5,882 turns).
 *
 * Run:
 *   npx tsx bench/locomo-retrieval.ts /path/to/locomo10.json [--embedder word-vectors|hashing]
 *     [--through service|index] [--fusion convex|rrf] [--vector-weight 0.4] [--sweep]
 *
 * `--through service` (default) goes through the public MemoryService API with the in-memory
 * fakes; `--through index` measures the retrieval index alone (faster; `--fusion`,
 * `--vector-weight` and `--sweep`, which tries vector weights 0.1-0.9 and RRF, apply to it).
 */
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import {
  createBm25Index,
  createHybridIndex,
  type HybridIndexOptions,
  type RetrievalIndex,
} from "../core/retrieval/index.js";
import type { Embedder } from "../core/ports/embedder.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { LOCOMO_CATEGORIES, loadLocomo, type LocomoData } from "./support/locomo.js";
import { ScoreTable } from "./support/retrieval-metrics.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    embedder: { type: "string", default: "word-vectors" },
    through: { type: "string", default: "service" },
    fusion: { type: "string", default: "convex" },
    "vector-weight": { type: "string" },
    sweep: { type: "boolean", default: false },
  },
});
const dataPath = positionals[0];
if (dataPath === undefined) {
  console.error("usage: npx tsx bench/locomo-retrieval.ts /path/to/locomo10.json [options]");
  process.exit(2);
}

type Setting = "per-project" | "all-permanent";
const SETTINGS: readonly Setting[] = ["per-project", "all-permanent"];
const LIMIT = 10;

/** Textbook BM25's terms: lower-cased words, no stop list, no stemming (the issue's baseline). */
const plainWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A ranker answers a question with the keys (`sample/diaId`) of its ranked memories. */
type Ranker = (question: string, sampleId: string) => Promise<string[][]>;

async function evaluate(data: LocomoData, rank: Ranker): Promise<ScoreTable> {
  const table = new ScoreTable();
  for (const sample of data.samples) {
    for (const q of sample.questions) {
      const ranked = await rank(q.question, sample.sampleId);
      const evidence = q.evidence.map((id) => `${sample.sampleId}/${id}`);
      table.add(["all", `${q.category} ${LOCOMO_CATEGORIES[q.category]}`], ranked, evidence);
    }
  }
  return table;
}

/** The index alone: one index over every turn; per-project questions accept their sample only. */
async function indexRanker(
  data: LocomoData,
  embedder: Embedder,
  index: RetrievalIndex,
  setting: Setting,
): Promise<Ranker> {
  for (const sample of data.samples) {
    const vectors = await embedder.embedDocuments(sample.turns.map((t) => t.content));
    sample.turns.forEach((t, i) =>
      index.add({ id: `${sample.sampleId}/${t.diaId}`, text: t.content, vector: vectors[i] ?? [] }),
    );
  }
  return async (question, sampleId) => {
    const vector = await embedder.embedQuery(question);
    const prefix = `${sampleId}/`;
    const hits = index.query({
      text: question,
      vector,
      topK: LIMIT,
      ...(setting === "per-project" ? { accept: (id: string) => id.startsWith(prefix) } : {}),
    });
    return hits.map((h) => [h.id]);
  };
}

/** The public API: remember every turn, search each question (limit 10). */
async function serviceRanker(
  data: LocomoData,
  embedder: Embedder,
  setting: Setting,
): Promise<Ranker> {
  const memory = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder,
    clock: new ManualClock(new Date("2026-11-23T00:00:00Z")),
  });
  await memory.init();
  const keysOf = new Map<string, string[]>();
  for (const sample of data.samples) {
    for (const t of sample.turns) {
      const { id } = await memory.remember({
        content: t.content,
        type: "episode",
        scope: setting === "per-project" ? "project" : "permanent",
        project: setting === "per-project" ? sample.sampleId : "",
      });
      keysOf.set(id, [...(keysOf.get(id) ?? []), `${sample.sampleId}/${t.diaId}`]);
    }
  }
  return async (question, sampleId) => {
    const { results } = await memory.search({
      message: question,
      limit: LIMIT,
      ...(setting === "per-project" ? { project: sampleId } : {}),
    });
    return results.map((r) => keysOf.get(r.memory.id) ?? []);
  };
}

function pct(x: number): string {
  return x.toFixed(3);
}

function print(title: string, columns: ReadonlyMap<string, ScoreTable>): void {
  const tables = [...columns].map(([name, t]) => [name, t.means()] as const);
  const groups = [...(tables[0]?.[1].keys() ?? [])];
  console.log(`\n${title}`);
  console.log(
    [
      "group (n)".padEnd(20),
      ...tables.map(([name]) => `${name}: R@5 / R@10 / MRR`.padEnd(34)),
    ].join(" | "),
  );
  for (const group of groups) {
    const n = tables[0]?.[1].get(group)?.n ?? 0;
    const cells = tables.map(([, means]) => {
      const m = means.get(group);
      return m === undefined ? "" : `${pct(m.recallAt5)} / ${pct(m.recallAt10)} / ${pct(m.mrr)}`;
    });
    console.log([`${group} (${n})`.padEnd(20), ...cells.map((c) => c.padEnd(34))].join(" | "));
  }
}

async function main(): Promise<void> {
  const data = loadLocomo(dataPath as string);
  const questions = data.samples.reduce((sum, s) => sum + s.questions.length, 0);
  const turns = data.samples.reduce((sum, s) => sum + s.turns.length, 0);
  const started = performance.now();
  const embedder = await makeBenchEmbedder(values.embedder);
  console.log(
    `LoCoMo: ${turns} turns, ${questions} questions (categories 1-4; dropped ${data.droppedQuestions} ` +
      `without usable evidence, ${data.droppedEvidence} unknown evidence ids); embedder ${embedder.id}; ` +
      `through ${values.through}; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${cpus().length} cores`,
  );
  const weight =
    values["vector-weight"] === undefined ? undefined : Number(values["vector-weight"]);
  const variants: [string, HybridIndexOptions][] = values.sweep
    ? [
        ...[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9, 1].map((w): [string, HybridIndexOptions] => [
          `convex w=${w}`,
          { vectorWeight: w },
        ]),
        ["rrf k=60", { fusion: "rrf" }],
      ]
    : [
        [
          "search",
          {
            fusion: values.fusion === "rrf" ? "rrf" : "convex",
            ...(weight === undefined ? {} : { vectorWeight: weight }),
          },
        ],
      ];
  for (const setting of SETTINGS) {
    const columns = new Map<string, ScoreTable>();
    if (values.through === "index") {
      for (const [name, options] of variants) {
        const ranker = await indexRanker(data, embedder, createHybridIndex(options), setting);
        columns.set(name, await evaluate(data, ranker));
      }
    } else {
      columns.set("search", await evaluate(data, await serviceRanker(data, embedder, setting)));
    }
    const baselines: [string, RetrievalIndex][] = [
      ["BM25", createBm25Index({ delta: 0 })],
      ["BM25+ (lexical side)", createBm25Index()],
      ["textbook BM25", createBm25Index({ delta: 0, terms: plainWords })],
    ];
    for (const [name, index] of baselines) {
      columns.set(name, await evaluate(data, await indexRanker(data, embedder, index, setting)));
    }
    print(
      setting === "per-project"
        ? "Each conversation its own project"
        : "All turns permanent (every question sees every turn)",
      columns,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage();
  console.log(
    `\n${seconds.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; ` +
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
}

await main();
