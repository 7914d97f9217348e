import { describe, expect, it } from "vitest";
import { HashingEmbedder } from "../../../adapters/local/hashing-embedder.js";
import { describeEmbedderContract } from "../../contracts/embedder-contract.js";

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
}

function norm(v: readonly number[]): number {
  return Math.sqrt(cosine(v, v));
}

describeEmbedderContract("HashingEmbedder", async () => ({
  embedder: new HashingEmbedder(),
  cleanup: () => Promise.resolve(),
}));

describeEmbedderContract("HashingEmbedder with 64 dimensions", async () => ({
  embedder: new HashingEmbedder({ dimensions: 64 }),
  cleanup: () => Promise.resolve(),
}));

describe("HashingEmbedder", () => {
  const embedder = new HashingEmbedder();

  it("names its version and dimension in its id", () => {
    expect(embedder.id).toBe("local-hash-v1:1024");
    expect(embedder.dimensions).toBe(1024);
    expect(new HashingEmbedder({ dimensions: 256 }).id).toBe("local-hash-v1:256");
  });

  it("refuses a dimension that is not an integer of at least 2", () => {
    expect(() => new HashingEmbedder({ dimensions: 0 })).toThrow(/dimensions/);
    expect(() => new HashingEmbedder({ dimensions: 3.5 })).toThrow(/dimensions/);
  });

  it("gives the same vector to the same text in every instance, for documents and queries alike", async () => {
    const text = "Backups of the billing database run nightly at 02:00 UTC";
    const [document] = await new HashingEmbedder().embedDocuments([text]);
    expect(await new HashingEmbedder().embedQuery(text)).toEqual(document);
  });

  it("ignores case and Unicode normalisation form", async () => {
    const composed = await embedder.embedQuery("Café MENU");
    expect(await embedder.embedQuery("cafe\u0301 menu")).toEqual(composed);
  });

  it("returns unit vectors for short, long, symbolic and non-Latin texts", async () => {
    const texts = ["a", "x".repeat(10_000), "!!! ???", "数据库备份", "emoji 🚀 launch", "42"];
    for (const vector of await embedder.embedDocuments(texts)) {
      expect(vector).toHaveLength(1024);
      expect(norm(vector)).toBeCloseTo(1, 10);
    }
  });

  it("maps empty and whitespace-only text to one fixed unit vector unrelated to real text", async () => {
    const [empty, blank, real] = await embedder.embedDocuments(["", " \n\t ", "deploys"]);
    expect(empty).toEqual(blank);
    expect(norm(empty ?? [])).toBeCloseTo(1, 10);
    expect(Math.abs(cosine(empty ?? [], real ?? []))).toBeLessThan(0.1);
  });

  it("tells symbol-only texts apart", async () => {
    const [bangs, questions] = await embedder.embedDocuments(["!!!", "???"]);
    expect(bangs).not.toEqual(questions);
  });

  it("scores texts sharing words above unrelated texts", async () => {
    const query = await embedder.embedQuery("when does the deploy pipeline run?");
    const [related, unrelated] = await embedder.embedDocuments([
      "the deploy pipeline runs on Fridays",
      "the coffee machine is in the kitchen",
    ]);
    expect(cosine(query, related ?? [])).toBeGreaterThan(0.3);
    expect(cosine(query, related ?? [])).toBeGreaterThan(cosine(query, unrelated ?? []) + 0.2);
  });

  it("relates words through shared pieces (deploy, deployment) but not through meaning", async () => {
    const [deploy, deployment, unrelated] = await embedder.embedDocuments([
      "deploy",
      "deployment",
      "kitchen",
    ]);
    expect(cosine(deploy ?? [], deployment ?? [])).toBeGreaterThan(0.3);
    expect(Math.abs(cosine(deploy ?? [], unrelated ?? []))).toBeLessThan(0.1);
    const [car, automobile] = await embedder.embedDocuments(["car", "automobile"]);
    expect(Math.abs(cosine(car ?? [], automobile ?? []))).toBeLessThan(0.1);
  });

  it("lets common words like 'the' weigh less than the words that carry the meaning", async () => {
    const [a, b] = await embedder.embedDocuments([
      "the cat is on the mat",
      "the plan is in the doc",
    ]);
    const [c, d] = await embedder.embedDocuments(["cat mat", "cat mat plan"]);
    expect(cosine(a ?? [], b ?? [])).toBeLessThan(0.2);
    expect(cosine(c ?? [], d ?? [])).toBeGreaterThan(0.6);
  });
});
