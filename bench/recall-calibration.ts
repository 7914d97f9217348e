/**
 * Fits the relevance calibration (core/retrieval/calibration.ts): the logistic curve from fused
 * evidence to "this retrieved memory answers the message". Collects the 50 best candidates of
 * every question of the realistic store (bench/data/team-memories.json) and, when its path is
 * given, of LoCoMo (each conversation its own project), labels each candidate by whether it
 * answers the question, and fits `p = 1 / (1 + exp(-slope · (evidence - midpoint)))` by maximum
 * likelihood, each data set weighing the same. Prints the fit per set and pooled, and the
 * observed share of answering candidates per evidence band beside the pooled curve.
 *
 * Run:
 *   npx tsx bench/recall-calibration.ts [/path/to/locomo10.json] [--embedder word-vectors|hashing]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import type { MemoryScope, MemoryType } from "../core/memory/model/types.js";
import { DEFAULT_VECTOR_WEIGHT, fusedEvidence } from "../core/retrieval/index.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { loadLocomo } from "./support/locomo.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { embedder: { type: "string", default: "word-vectors" } },
});
const embedder = await makeBenchEmbedder(values.embedder);

interface Sample {
  readonly evidence: number;
  readonly label: 0 | 1;
}

async function collect(
  memories: readonly {
    key: string;
    content: string;
    type: MemoryType;
    scope: MemoryScope;
    project: string;
  }[],
  questions: readonly { question: string; project: string; relevant: readonly string[] }[],
): Promise<Sample[]> {
  const service = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder,
    clock: new ManualClock(new Date("2026-11-20T09:00:00Z")),
  });
  await service.init();
  const keyOf = new Map<string, string[]>();
  for (const m of memories) {
    const { id } = await service.remember({
      content: m.content,
      type: m.type,
      scope: m.scope,
      project: m.project,
    });
    keyOf.set(id, [...(keyOf.get(id) ?? []), m.key]);
  }
  const samples: Sample[] = [];
  for (const q of questions) {
    const relevant = new Set(q.relevant);
    const { results } = await service.search({
      message: q.question,
      project: q.project,
      limit: 50,
      explain: true,
    });
    for (const r of results) {
      const f = r.factors;
      if (f === undefined) continue;
      const answers = (keyOf.get(r.memory.id) ?? []).some((k) => relevant.has(k));
      samples.push({
        evidence: fusedEvidence(f.lexical, f.semantic, DEFAULT_VECTOR_WEIGHT),
        label: answers ? 1 : 0,
      });
    }
  }
  return samples;
}

/** Maximum-likelihood logistic fit (Newton's method) with per-sample weights. */
function fit(sets: readonly Sample[][]): { slope: number; midpoint: number } {
  let a = 10;
  let c = -3;
  for (let step = 0; step < 100; step += 1) {
    let ga = 0;
    let gc = 0;
    let haa = 0;
    let hac = 0;
    let hcc = 0;
    for (const set of sets) {
      const w = 1 / set.length;
      for (const { evidence: x, label: y } of set) {
        const p = 1 / (1 + Math.exp(-(a * x + c)));
        ga += w * (y - p) * x;
        gc += w * (y - p);
        const v = w * p * (1 - p);
        haa += v * x * x;
        hac += v * x;
        hcc += v;
      }
    }
    const det = haa * hcc - hac * hac;
    if (!(Math.abs(det) > 1e-12)) break;
    a += (hcc * ga - hac * gc) / det;
    c += (haa * gc - hac * ga) / det;
  }
  return { slope: a, midpoint: -c / a };
}

const sets = new Map<string, Sample[]>();
const team = JSON.parse(
  readFileSync(new URL("./data/team-memories.json", import.meta.url), "utf8"),
) as {
  memories: {
    id: string;
    type: MemoryType;
    scope: MemoryScope;
    project: string;
    content: string;
  }[];
  questions: { question: string; project: string; relevant: string[] }[];
};
sets.set(
  "realistic store",
  await collect(
    team.memories.map((m) => ({ ...m, key: m.id })),
    team.questions,
  ),
);
if (positionals[0] !== undefined) {
  const locomo = loadLocomo(positionals[0]);
  sets.set(
    "LoCoMo",
    await collect(
      locomo.samples.flatMap((s) =>
        s.turns.map((t) => ({
          key: `${s.sampleId}/${t.diaId}`,
          content: t.content,
          type: "episode" as const,
          scope: "project" as const,
          project: s.sampleId,
        })),
      ),
      locomo.samples.flatMap((s) =>
        s.questions.map((q) => ({
          question: q.question,
          project: s.sampleId,
          relevant: q.evidence.map((e) => `${s.sampleId}/${e}`),
        })),
      ),
    ),
  );
}
console.log(`embedder ${embedder.id}, vector weight ${DEFAULT_VECTOR_WEIGHT}`);
for (const [name, samples] of sets) {
  const f = fit([samples]);
  const positives = samples.filter((s) => s.label === 1).length;
  console.log(
    `${name}: ${samples.length} candidates, ${positives} answering; slope ${f.slope.toFixed(2)}, midpoint ${f.midpoint.toFixed(3)}`,
  );
}
const pooled = fit([...sets.values()]);
console.log(
  `pooled (each set weighs the same): slope ${pooled.slope.toFixed(2)}, midpoint ${pooled.midpoint.toFixed(3)}`,
);
console.log("evidence band | observed share answering per set | pooled curve");
for (let low = 0; low < 1; low += 0.1) {
  const high = low + 0.1;
  const cells = [...sets].map(([name, samples]) => {
    const band = samples.filter((s) => s.evidence >= low && s.evidence < high);
    const share = band.length === 0 ? NaN : band.filter((s) => s.label === 1).length / band.length;
    return `${name} ${Number.isNaN(share) ? "  -  " : share.toFixed(3)} (${band.length})`;
  });
  const mid = low + 0.05;
  const curve = 1 / (1 + Math.exp(-pooled.slope * (mid - pooled.midpoint)));
  console.log(`${low.toFixed(1)}-${high.toFixed(1)} | ${cells.join(" | ")} | ${curve.toFixed(3)}`);
}
