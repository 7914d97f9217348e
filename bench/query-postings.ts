/**
 * One query's cost when its words are thousands of the store's common ones: the hybrid index
 * over N synthetic memories (20 words each, drawn with a Zipf-like skew from 200,000 words,
 * 100-dimension random vectors, 20 projects), asked a 65,000-character message made of the
 * most common words (~12,700 distinct terms), with the posting budget (the default
 * `maxQueryPostings`) and without it (`Infinity`), alternating, then five short queries.
 * A natural query reads a few thousand postings; that message would read most of the index.
 *
 * Run:
 *   npx tsx bench/query-postings.ts [--n 1000000] [--rounds 3]
 */
import { createHybridIndex, type RetrievalIndex } from "../core/retrieval/index.js";
import { intOption } from "./support/int-option.js";
import { seededRandom } from "./support/seeded-random.js";

const N = intOption("n", 1_000_000);
const ROUNDS = intOption("rounds", 3);
const VOCABULARY = 200_000;
const random = seededRandom(1);
const word = (k: number) => `q${k.toString(36)}z`;
const pickWord = () => word(Math.floor(VOCABULARY * Math.pow(random(), 3)));
const vector = () => Array.from({ length: 100 }, () => random() - 0.5);

function build(options: { maxQueryPostings?: number }): RetrievalIndex {
  const index = createHybridIndex(options);
  const build = seededRandom(2);
  for (let i = 0; i < N; i += 1) {
    const text = Array.from({ length: 20 }, () =>
      word(Math.floor(VOCABULARY * Math.pow(build(), 3))),
    ).join(" ");
    const v = Array.from({ length: 100 }, () => build() - 0.5);
    index.add({
      id: String(i),
      text,
      vector: v,
      order: { group: `p${i % 20}`, time: i * 1000, tie: i },
    });
  }
  return index;
}

let message = "";
for (let k = 0; message.length < 65_000; k += 1) message += `${word(k)} `;
const timed = (index: RetrievalIndex, text: string) => {
  const started = performance.now();
  index.query({ text, vector: vector(), topK: 10 });
  return performance.now() - started;
};
const budgeted = build({});
const unbounded = build({ maxQueryPostings: Infinity });
timed(budgeted, "q1z"); // settles both indexes before timing
timed(unbounded, "q1z");
console.log(`${N} memories; the long message, ms (with the default budget / without):`);
for (let round = 0; round < ROUNDS; round += 1) {
  const [a, b] = round % 2 === 0 ? [budgeted, unbounded] : [unbounded, budgeted];
  const first = timed(a, message);
  const second = timed(b, message);
  const [withBudget, without] = a === budgeted ? [first, second] : [second, first];
  console.log(`  round ${round + 1}: ${withBudget.toFixed(0)} / ${without.toFixed(0)}`);
}
for (const text of ["q1z q2z q3z q40z q500z", "q500z q7000z", "q1z", "q9z q8z", pickWord()]) {
  console.log(`  short "${text}": ${timed(budgeted, text).toFixed(1)} ms`);
}
