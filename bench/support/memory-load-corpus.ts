/**
 * The synthetic corpus of `bench/memory-load.ts`: memory bodies over a ~100-word vocabulary (each
 * word in ~12 % of memories) spread over 20 projects, and query phrases of the same words. Shared
 * with `bench/retrieval-index.ts --corpus memory-load` so the index alone is measured on the
 * service benchmark's data.
 *
 * @example
 * const corpus = memoryLoadCorpus(seededRandom(42));
 * const body = corpus.memoryBody(0); // { content: "… (note 0)", type: "rule", … }
 * const query = corpus.phrase(4);
 */
export const MEMORY_LOAD_PROJECTS = 20;

const WORDS = (
  "deploy release build test staging production database postgres redis cache queue worker " +
  "api gateway auth token session user account billing invoice payment refund customer order " +
  "schema migration index query latency timeout retry backoff error alert metric dashboard log " +
  "trace span service cluster node pod container image registry secret config flag feature " +
  "rollout rollback canary review merge branch commit pipeline runner artifact cost budget team " +
  "oncall incident postmortem runbook backup restore replica shard partition vacuum lock deadlock"
).split(" ");
const TYPES = ["rule", "fact", "episode", "procedure", "preference"];

/** One remember body of the load benchmark. */
export interface MemoryLoadBody {
  readonly content: string;
  readonly type: string;
  readonly scope: string;
  readonly project: string;
  readonly tags: string[];
  readonly confidence: number;
}

/** The corpus over one random stream (bodies and phrases draw from it in call order). */
export function memoryLoadCorpus(random: () => number): {
  memoryBody(i: number): MemoryLoadBody;
  phrase(words: number): string;
} {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const phrase = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(" ");
  return {
    phrase,
    memoryBody(i) {
      const kind = i % 10;
      const scope = kind < 5 ? "project" : kind < 7 ? "permanent" : kind < 9 ? "session" : "ttl";
      return {
        content: `${phrase(8 + (i % 12))} (note ${i})`,
        type: TYPES[i % TYPES.length] as string,
        scope,
        project: scope === "project" ? `project-${i % MEMORY_LOAD_PROJECTS}` : "",
        tags: [pick(WORDS), pick(WORDS)],
        confidence: 0.5 + (i % 50) / 100,
      };
    },
  };
}
