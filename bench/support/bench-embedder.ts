import type { Embedder } from "../../core/ports/embedder.js";
import { HashingEmbedder, UseLiteEmbedder } from "../../adapters/local/index.js";
import { WordVectorEmbedder } from "../../adapters/local/word-vector-embedder.js";

/**
 * The embedder a retrieval benchmark runs with, by name: `hashing` (the lexical hashing
 * embedder, 1024 dimensions), `word-vectors` (the offline GloVe word-vector embedder) or
 * `use-lite` (the sentence encoder, in two worker threads).
 *
 * @example
 * const embedder = await makeBenchEmbedder("hashing");
 */
export async function makeBenchEmbedder(name: string | undefined): Promise<Embedder> {
  switch (name) {
    case "hashing":
      return cached(new HashingEmbedder({ dimensions: 1024 }));
    case "word-vectors":
      return cached(
        new WordVectorEmbedder(
          process.env["WORD_VECTORS"] === undefined ? {} : { path: process.env["WORD_VECTORS"] },
        ),
      );
    case "use-lite": {
      const embedder = new UseLiteEmbedder({ threads: 2 });
      await embedder.load();
      return cached(embedder);
    }
    default:
      throw new Error(
        `--embedder: expected hashing, word-vectors or use-lite, got ${String(name)}`,
      );
  }
}

/** Remembers every text's vector: the benchmarks embed the same turns for several indexes. */
function cached(embedder: Embedder): Embedder {
  const vectors = new Map<string, number[]>();
  const one = async (text: string, embed: (t: string) => Promise<number[]>) => {
    let vector = vectors.get(text);
    if (vector === undefined) {
      vector = await embed(text);
      vectors.set(text, vector);
    }
    return vector;
  };
  return {
    id: embedder.id,
    dimensions: embedder.dimensions,
    embedDocuments: (texts) =>
      Promise.all(
        texts.map((t) =>
          one(`d:${t}`, async (x) => (await embedder.embedDocuments([x.slice(2)]))[0] ?? []),
        ),
      ),
    embedQuery: (text) => one(`q:${text}`, (x) => embedder.embedQuery(x.slice(2))),
  };
}
