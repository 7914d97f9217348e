import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CohereEmbedder,
  type CohereEmbedderOptions,
} from "../../../adapters/cohere/cohere-embedder.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { describeEmbedderContract } from "../../contracts/embedder-contract.js";
import { FakeCohereServer } from "../../support/fake-cohere-server.js";

const API_KEY = "test-key-do-not-leak";

describeEmbedderContract("CohereEmbedder against a fake Cohere server", async () => {
  const cohere = await FakeCohereServer.start();
  return {
    embedder: new CohereEmbedder({ apiKey: API_KEY, baseUrl: cohere.url, retryBaseDelayMs: 5 }),
    cleanup: () => cohere.close(),
  };
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );
}

function norm(v: readonly number[]): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

describe("CohereEmbedder", () => {
  let cohere: FakeCohereServer;
  const embedder = (options: Partial<CohereEmbedderOptions> = {}) =>
    new CohereEmbedder({ apiKey: API_KEY, baseUrl: cohere.url, retryBaseDelayMs: 5, ...options });

  beforeEach(async () => {
    cohere = await FakeCohereServer.start();
  });
  afterEach(async () => {
    await cohere.close();
  });

  it("names the model and dimension in its id", () => {
    expect(embedder().id).toBe("cohere:embed-v4.0:1024");
    expect(embedder({ model: "embed-english-v3.0", dimensions: 384 }).id).toBe(
      "cohere:embed-english-v3.0:384",
    );
  });

  it("embeds documents as search_document and queries as search_query, with the key, model and dimension", async () => {
    const subject = embedder({ dimensions: 256 });
    const [document] = await subject.embedDocuments(["deploys run on Fridays"]);
    const query = await subject.embedQuery("when do deploys run?");
    expect(cohere.requests).toEqual([
      {
        model: "embed-v4.0",
        inputType: "search_document",
        texts: ["deploys run on Fridays"],
        outputDimension: 256,
        embeddingTypes: ["float"],
        authorization: `Bearer ${API_KEY}`,
      },
      expect.objectContaining({ inputType: "search_query", texts: ["when do deploys run?"] }),
    ]);
    expect(document).toHaveLength(256);
    expect(norm(document ?? [])).toBeCloseTo(1, 10);
    expect(norm(query)).toBeCloseTo(1, 10);
  });

  it("sends 200 texts in batches of at most 96 and keeps their order", async () => {
    const texts = Array.from({ length: 200 }, (_, i) => `text ${i}`);
    const vectors = await embedder({ dimensions: 8 }).embedDocuments(texts);
    expect(cohere.requests.map((r) => r.texts.length)).toEqual([96, 96, 8]);
    expect(cohere.requests.flatMap((r) => r.texts)).toEqual(texts);
    const expected = FakeCohereServer.vectorOf("text 150", 8);
    const scale = norm(expected);
    vectors[150]?.forEach((x, i) => expect(x).toBeCloseTo((expected[i] ?? 0) / scale, 10));
  });

  it("honours a smaller batch size", async () => {
    await embedder({ batchSize: 10, dimensions: 4 }).embedDocuments(
      Array.from({ length: 25 }, (_, i) => `t${i}`),
    );
    expect(cohere.requests.map((r) => r.texts.length)).toEqual([10, 10, 5]);
  });

  it("retries after a 429 and answers", async () => {
    cohere.failNext({ kind: "status", status: 429 });
    expect(await embedder().embedQuery("hello")).toHaveLength(1024);
    expect(cohere.requests).toHaveLength(2);
  });

  it("retries after a 503 and after a dropped connection", async () => {
    cohere.failNext({ kind: "status", status: 503 }, { kind: "drop" });
    expect(await embedder().embedQuery("hello")).toHaveLength(1024);
    expect(cohere.requests).toHaveLength(3);
  });

  it("fails with embedder_failed after maxRetries when Cohere keeps answering 429", async () => {
    cohere.failAlways({ kind: "status", status: 429 });
    const error = await failure(embedder({ maxRetries: 2 }).embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(error.message).toBe("failed to generate embedding");
    expect(error.cause).toBeInstanceOf(Error);
    expect(cohere.requests).toHaveLength(3);
  });

  it("fails with embedder_failed when Cohere keeps answering 500", async () => {
    cohere.failAlways({ kind: "status", status: 500 });
    const error = await failure(embedder({ maxRetries: 1 }).embedDocuments(["a", "b"]));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(cohere.requests).toHaveLength(2);
  });

  it("does not retry a request Cohere refuses (401) and never puts the key in the message", async () => {
    cohere.failAlways({ kind: "status", status: 401 });
    const error = await failure(embedder().embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(cohere.requests).toHaveLength(1);
    expect(error.message).not.toContain(API_KEY);
  });

  it("gives up on a slow answer at its timeout with embedder_failed instead of hanging", async () => {
    cohere.failAlways({ kind: "slow", delayMs: 120_000 });
    const error = await failure(embedder({ timeoutMs: 200, maxRetries: 1 }).embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(cohere.requests).toHaveLength(2);
  });

  it("retries after a timeout and answers when the next attempt is fast", async () => {
    cohere.failNext({ kind: "slow", delayMs: 120_000 });
    expect(await embedder({ timeoutMs: 200 }).embedQuery("hello")).toHaveLength(1024);
    expect(cohere.requests).toHaveLength(2);
  });

  it("bounds all attempts of one batch by maxElapsedMs", async () => {
    cohere.failAlways({ kind: "status", status: 500 });
    const subject = embedder({ maxRetries: 50, retryBaseDelayMs: 50, maxElapsedMs: 400 });
    const error = await failure(subject.embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(cohere.requests.length).toBeGreaterThan(1);
    expect(cohere.requests.length).toBeLessThan(10);
  });

  it("fails with embedder_failed on a body that is not JSON", async () => {
    cohere.failAlways({ kind: "malformed" });
    const error = await failure(embedder().embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
  });

  it("fails with embedder_failed when the answer has the wrong number of vectors", async () => {
    cohere.failAlways({ kind: "wrong-count" });
    const error = await failure(embedder().embedDocuments(["a", "b", "c"]));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(String((error.cause as Error).message)).toContain("expected 3 float vectors, got 2");
  });

  it("fails with embedder_failed when the vectors have the wrong dimension", async () => {
    cohere.failAlways({ kind: "wrong-dimension" });
    const error = await failure(embedder({ dimensions: 16 }).embedQuery("a"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(String((error.cause as Error).message)).toContain("expected 16 numbers, got 15");
  });

  it("fails with embedder_failed when nothing listens at the base URL", async () => {
    await cohere.close();
    const error = await failure(embedder({ maxRetries: 1 }).embedQuery("hello"));
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    cohere = await FakeCohereServer.start();
  });
});

describe("CohereEmbedder loading", () => {
  it("loads cohere-ai only when it first embeds, not when imported or constructed", async () => {
    const script = `
      import { createRequire } from "node:module";
      const loaded = () => Object.keys(createRequire(import.meta.url).cache)
        .some((key) => key.includes("/node_modules/cohere-ai/"));
      const { CohereEmbedder } = await import("./adapters/cohere/index.ts");
      const embedder = new CohereEmbedder({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
      const before = loaded();
      await embedder.embedQuery("x").catch(() => undefined);
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout)).toEqual({ before: false, after: true });
  });
});
