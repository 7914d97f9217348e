import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeWordVectors, encodeWordVectors } from "../../../adapters/local/word-vector-asset.js";
import {
  knownRows,
  sifVector,
  WordVectorEmbedder,
} from "../../../adapters/local/word-vector-embedder.js";
import { HashingEmbedder } from "../../../adapters/local/hashing-embedder.js";
import { describeEmbedderContract } from "../../contracts/embedder-contract.js";

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
}

/** The shipped asset, loaded once for the whole file (it is read from the repository). */
const shipped = new WordVectorEmbedder();

describeEmbedderContract("WordVectorEmbedder", async () => ({
  embedder: shipped,
  cleanup: () => Promise.resolve(),
}));

describe("WordVectorEmbedder", () => {
  it("names a vector space of its own, apart from the hashing embedder's", () => {
    expect(shipped.id).toBe("local-glove-sif-v1:100");
    expect(shipped.dimensions).toBe(100);
    expect(shipped.id).not.toBe(new HashingEmbedder({ dimensions: 100 }).id);
  });

  it("puts related words and paraphrases closer than unrelated ones", () => {
    const car = shipped.embed("car");
    expect(cosine(car, shipped.embed("automobile"))).toBeGreaterThan(0.5);
    expect(cosine(car, shipped.embed("automobile"))).toBeGreaterThan(
      cosine(car, shipped.embed("banana")) + 0.3,
    );
    const query = shipped.embed("where can guests park their vehicles?");
    const memories = [
      "Visitors can leave their car in the garage under the building",
      "The espresso machine is on the third floor next to the kitchen",
      "Production deploys happen only on Friday mornings after the standup",
    ].map((text) => cosine(query, shipped.embed(text)));
    expect(Math.max(...memories)).toBe(memories[0]);
  });

  it("splits identifiers it does not know whole into known words", () => {
    const table = shipped.load();
    const parts = knownRows(table, "user payment");
    expect(knownRows(table, "userPayment")).toEqual(parts);
    expect(knownRows(table, "user_payment")).toEqual(parts);
    expect(knownRows(table, "user-payment")).toEqual(parts);
    expect(knownRows(table, "e-mail")).toEqual([table.rows.get("e-mail")]);
  });

  it("drops possessive 's and apostrophes before it looks words up, straight or curly", () => {
    const table = shipped.load();
    const plain = knownRows(table, "the team deploy dont");
    expect(knownRows(table, "the team's deploy don't")).toEqual(plain);
    expect(knownRows(table, "the team\u2019s deploy don\u2019t")).toEqual(plain);
    expect(knownRows(table, "the team\u02bcs deploy don\u02bct")).toEqual(plain);
  });

  it("falls back to the hashing embedder's vector for text with no known word", () => {
    const text = "zqxv 12345 kfjw";
    expect(sifVector(shipped.load(), text)).toBeUndefined();
    expect(shipped.embed(text)).toEqual(new HashingEmbedder({ dimensions: 100 }).embed(text));
  });
});

describe("word-vector asset", () => {
  const dir = mkdtempSync(join(tmpdir(), "word-vectors-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tiny = {
    dimensions: 2,
    vectors: Int8Array.of(127, 0, 0, 127, 90, 90),
    scales: Float32Array.of(0.5, 0.25, 1),
    weights: Float32Array.of(1, 0.5, 1),
    component: Float32Array.of(0, 0),
  };

  it("round-trips through its binary encoding", () => {
    const table = decodeWordVectors(encodeWordVectors(tiny, ["north", "east", "northeast"]));
    expect([...table.rows]).toEqual([
      ["north", 0],
      ["east", 1],
      ["northeast", 2],
    ]);
    expect(table.vectors).toEqual(tiny.vectors);
    expect(table.scales).toEqual(tiny.scales);
    expect(table.weights).toEqual(tiny.weights);
  });

  it("embeds the weighted mean of word vectors from a given asset path", () => {
    const path = join(dir, "tiny.bin");
    writeFileSync(path, encodeWordVectors(tiny, ["north", "east", "northeast"]));
    expect(() => new WordVectorEmbedder({ path }).embed("north")).toThrow(/2 dimensions/);
    const table = decodeWordVectors(encodeWordVectors(tiny, ["north", "east", "northeast"]));
    const v = sifVector(table, "North east") ?? [];
    // north: 0.5 · 127 · 1 = 63.5 on x; east: 0.25 · 127 · 0.5 = 15.875 on y.
    expect(v[0]).toBeCloseTo(63.5 / Math.hypot(63.5, 15.875), 6);
    expect(v[1]).toBeCloseTo(15.875 / Math.hypot(63.5, 15.875), 6);
  });

  it("rejects a file that is not an asset or is cut short, saying why", () => {
    const bytes = encodeWordVectors(tiny, ["north", "east", "northeast"]);
    expect(() => decodeWordVectors(new TextEncoder().encode("hello world, not vectors"))).toThrow(
      /not a WVEC file/,
    );
    expect(() => decodeWordVectors(bytes.subarray(0, bytes.length - 3))).toThrow(/bytes, expected/);
  });
});
