/**
 * Prints where a V8 CPU profile (`node --cpu-prof`, e.g. from `bench/memory-load.ts --cpu-prof DIR`)
 * spent its time: the functions with the most self time, with their file and share of the total.
 *
 * Run:
 *   npx tsx bench/support/summarize-cpu-profile.ts FILE.cpuprofile [--top 25]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const file = process.argv[2];
if (file === undefined)
  throw new Error("usage: summarize-cpu-profile.ts FILE.cpuprofile [--top N]");
const topAt = process.argv.indexOf("--top");
const top = topAt === -1 ? 25 : Number(process.argv[topAt + 1]);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const frame = byId.get(id)?.callFrame;
  const url = frame?.url.replace(/^.*\/(node_modules|dist|core|adapters|shells)\//, "$1/") ?? "";
  const key = `${frame?.functionName || "(anonymous)"} ${url}:${(frame?.lineNumber ?? 0) + 1}`;
  self.set(key, (self.get(key) ?? 0) + delta);
});
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(
    `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`,
  );
}
