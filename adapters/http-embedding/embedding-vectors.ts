/** An embedding server's answer that does not hold what was asked. */
export class MalformedEmbeddingAnswer extends Error {
  override name = "MalformedEmbeddingAnswer";
}

/**
 * Checks an answer's vectors (one per text, each `dimensions` finite numbers, not all zero) and
 * returns them L2-normalised; throws {@link MalformedEmbeddingAnswer} saying what is wrong.
 *
 * @example
 * normalisedVectors([[3, 4]], 1, 2); // [[0.6, 0.8]]
 */
export function normalisedVectors(vectors: unknown, count: number, dimensions: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new MalformedEmbeddingAnswer(
      `expected ${count} vectors, got ${Array.isArray(vectors) ? vectors.length : typeof vectors}`,
    );
  }
  return vectors.map((vector: unknown, i) => {
    if (!Array.isArray(vector) || vector.length !== dimensions) {
      throw new MalformedEmbeddingAnswer(
        `vector ${i}: expected ${dimensions} numbers, got ${Array.isArray(vector) ? vector.length : typeof vector}`,
      );
    }
    let sum = 0;
    for (const x of vector) {
      if (typeof x !== "number" || !Number.isFinite(x)) {
        throw new MalformedEmbeddingAnswer(`vector ${i}: not a finite number`);
      }
      sum += x * x;
    }
    if (sum === 0) throw new MalformedEmbeddingAnswer(`vector ${i} is all zeros`);
    const norm = Math.sqrt(sum);
    return (vector as number[]).map((x) => x / norm);
  });
}

/**
 * Embeds `texts` in consecutive batches of at most `size`, one call after another, keeping the
 * order.
 *
 * @example
 * await inBatches(texts, 64, (batch) => client.postJson("/api/embed", { input: batch }, read));
 */
export async function inBatches(
  texts: readonly string[],
  size: number,
  embed: (batch: readonly string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += size)
    vectors.push(...(await embed(texts.slice(i, i + size))));
  return vectors;
}

/**
 * The vector of a one-text call, whose answer was already checked to hold one vector per text.
 *
 * @example
 * return onlyVector("OllamaEmbedder", this.#embed([text]));
 */
export async function onlyVector(owner: string, vectors: Promise<number[][]>): Promise<number[]> {
  const [vector] = await vectors;
  if (vector === undefined) throw new Error(`${owner}: a checked answer lost its vector`);
  return vector;
}

/**
 * Checks the shared numeric options of an HTTP embedder; throws a RangeError naming the first
 * bad one (the config schema validates before this, so this guards library users).
 *
 * @example
 * checkEmbedderNumbers("OllamaEmbedder", { dimensions: 768, batchSize: 64 });
 */
export function checkEmbedderNumbers(owner: string, numbers: Record<string, number>): void {
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`${owner}: ${name} must be a positive integer, got ${value}`);
    }
  }
}
