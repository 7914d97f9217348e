/**
 * Cost of the `use-lite` local embedder (the Universal Sentence Encoder lite forward pass in
 * TypeScript, `adapters/local/use-lite-encoder.ts`) beside the GloVe word-vector embedder: CPU
 * per text by length, memory, and what the worker threads give (throughput, and the event loop's
 * longest stall while a batch is embedded, in the threads and, for contrast, on the loop itself).
 *
 * Run:
 *   npx tsx bench/sentence-encoder.ts [--reps 20] [--batch 200]
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  defaultUseLitePath,
  UseLiteEmbedder,
  WordVectorEmbedder,
} from "../adapters/local/index.js";
import { decodeUseLite } from "../adapters/local/use-lite-asset.js";
import { UseLiteEncoder } from "../adapters/local/use-lite-encoder.js";

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "20" },
    batch: { type: "string", default: "200" },
  },
});
const reps = Number(values.reps);
const batchSize = Number(values.batch);

const SHORT = "Prefers TypeScript over JavaScript for new services.";
const MEDIUM =
  "To roll back a bad deploy of checkout-web, run kubectl rollout undo deployment/checkout-web " +
  "and watch the pods until they are ready again, then tell the channel.";
const LONG =
  "Before a release, the on-call engineer checks the dashboards, reads the open incidents, " +
  "confirms the database migrations ran on staging, and writes a short note in the channel so " +
  "that everyone knows which version is going out and who to ask when something breaks. The " +
  "note names the commit, the migration and the feature flags that change, and links the " +
  "rollback runbook; after the release the engineer watches error rates for half an hour.";

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const cpuMs = (work: () => void): number => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

console.log(
  `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
const rssStart = process.memoryUsage().rss;
const encoder = new UseLiteEncoder(decodeUseLite(readFileSync(defaultUseLitePath())));
const rssEncoder = process.memoryUsage().rss;
const glove = new WordVectorEmbedder();
glove.load();

console.log(`\nCPU per text, median of ${reps} (after 3 warm-up runs):`);
console.log("text     tokens  use-lite ms  GloVe µs");
for (const [name, text] of [
  ["short", SHORT],
  ["medium", MEDIUM],
  ["long", LONG],
] as const) {
  for (let i = 0; i < 3; i += 1) {
    encoder.embed(text);
    glove.embed(text);
  }
  const sentence = Array.from({ length: reps }, () => cpuMs(() => encoder.embed(text)));
  const words = Array.from({ length: reps }, () => cpuMs(() => glove.embed(text)));
  console.log(
    `${name.padEnd(8)} ${String(encoder.tokens(text).length).padStart(6)}  ` +
      `${median(sentence).toFixed(1).padStart(11)}  ${(median(words) * 1000).toFixed(0).padStart(8)}`,
  );
}
console.log(
  `\nRSS: ${mb(rssStart)} MB at start, +${mb(rssEncoder - rssStart)} MB for one encoder ` +
    `(asset ${mb(readFileSync(defaultUseLitePath()).length)} MB)`,
);

const texts = Array.from({ length: batchSize }, (_, i) => `${MEDIUM} (${i})`);
for (const threads of [1, 2]) {
  const embedder = new UseLiteEmbedder({ threads });
  const before = process.memoryUsage().rss;
  await embedder.load();
  const loaded = process.memoryUsage().rss;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await embedder.embedDocuments(texts);
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  const after = process.memoryUsage().rss;
  console.log(
    `\nworker threads: ${threads}: ${batchSize} medium texts in ${seconds.toFixed(1)} s ` +
      `(${(batchSize / seconds).toFixed(0)} texts/s); event loop stalled at most ` +
      `${(delay.max / 1e6).toFixed(1)} ms meanwhile; RSS +${mb(loaded - before)} MB loaded, ` +
      `+${mb(after - before)} MB after the batch`,
  );
  await embedder.close();
}

const inline = monitorEventLoopDelay({ resolution: 5 });
inline.enable();
const ticking = setInterval(() => undefined, 5);
await new Promise<void>((resolve) =>
  setTimeout(() => {
    for (const text of texts.slice(0, 20)) encoder.embed(text);
    resolve();
  }, 10),
);
await new Promise((resolve) => setTimeout(resolve, 20));
clearInterval(ticking);
inline.disable();
console.log(
  `for contrast, 20 of them on the event loop itself: it stalled ${(inline.max / 1e6).toFixed(0)} ms`,
);
