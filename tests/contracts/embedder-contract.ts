import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../core/ports/embedder.js";

/** What a contract run needs: an embedder and a way to dispose of what backs it. */
export interface EmbedderUnderTest {
  embedder: Embedder;
  cleanup(): Promise<void>;
}

function norm(v: readonly number[]): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

/**
 * The behaviour every Embedder must have. Runs against the fake, the local hashing embedder and
 * the Cohere adapter (against a fake Cohere HTTP server).
 *
 * @example
 * describeEmbedderContract("FakeEmbedder", async () => ({
 *   embedder: new FakeEmbedder(),
 *   cleanup: async () => {},
 * }));
 */
export function describeEmbedderContract(
  name: string,
  make: () => Promise<EmbedderUnderTest>,
): void {
  describe(`Embedder contract: ${name}`, () => {
    let subject: EmbedderUnderTest;
    let embedder: Embedder;

    beforeEach(async () => {
      subject = await make();
      embedder = subject.embedder;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("names its vector space and dimension", () => {
      expect(embedder.id).toMatch(/\S/);
      expect(Number.isInteger(embedder.dimensions)).toBe(true);
      expect(embedder.dimensions).toBeGreaterThan(0);
    });

    it("returns one normalised vector of the declared dimension per document, in order", async () => {
      const texts = ["the deploy runs on Fridays", "coffee is in the kitchen", "use tabs"];
      const vectors = await embedder.embedDocuments(texts);
      expect(vectors).toHaveLength(3);
      for (const v of vectors) {
        expect(v).toHaveLength(embedder.dimensions);
        expect(v.every((x) => Number.isFinite(x))).toBe(true);
        expect(norm(v)).toBeCloseTo(1, 5);
      }
      const again = await embedder.embedDocuments([texts[2] ?? "", texts[0] ?? ""]);
      expect(again[0]).toEqual(vectors[2]);
      expect(again[1]).toEqual(vectors[0]);
    });

    it("gives distinct texts distinct vectors", async () => {
      const [a, b] = await embedder.embedDocuments(["postgres backups", "frontend colours"]);
      expect(a).not.toEqual(b);
    });

    it("returns a normalised query vector of the declared dimension, deterministically", async () => {
      const v = await embedder.embedQuery("when does the deploy run?");
      expect(v).toHaveLength(embedder.dimensions);
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(await embedder.embedQuery("when does the deploy run?")).toEqual(v);
    });

    it("returns an empty list for no documents", async () => {
      expect(await embedder.embedDocuments([])).toEqual([]);
    });

    it("embeds more documents than one provider batch holds", async () => {
      const texts = Array.from({ length: 200 }, (_, i) => `memory number ${i}`);
      const vectors = await embedder.embedDocuments(texts);
      expect(vectors).toHaveLength(200);
      expect(vectors[199]).toEqual((await embedder.embedDocuments(["memory number 199"]))[0]);
    });
  });
}
