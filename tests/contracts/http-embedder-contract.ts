import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../core/errors.js";
import type { Embedder } from "../../core/ports/embedder.js";
import type { EmbeddingHttpOptions } from "../../adapters/http-embedding/embedding-http-client.js";
import { FakeEmbeddingServer, type EmbeddingDialect } from "../support/fake-embedding-server.js";
import { describeEmbedderContract } from "./embedder-contract.js";

/** Builds the embedder under test against a fake server's base URL. */
export type MakeHttpEmbedder = (
  url: string,
  options: Partial<EmbeddingHttpOptions> & { dimensions: number; batchSize?: number },
) => Embedder;

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );
}

/**
 * The {@link describeEmbedderContract} suite plus what every HTTP embedder owes its callers when
 * the server misbehaves, run against a fake server of its API on loopback: bounded retries on
 * 429/5xx/drops honouring `Retry-After`, no retry on a refusal, a deadline on slow answers and
 * stalled bodies, and one clear `embedder_failed` ("failed to generate embedding", which the
 * shells answer as a 500) for errors and malformed answers, never a hang.
 *
 * @example
 * describeHttpEmbedderContract("OllamaEmbedder", "ollama", (url, o) => new OllamaEmbedder({ baseUrl: url, ...o }));
 */
export function describeHttpEmbedderContract(
  name: string,
  dialect: EmbeddingDialect,
  make: MakeHttpEmbedder,
): void {
  describeEmbedderContract(`${name} against a fake ${dialect} server`, async () => {
    const server = await FakeEmbeddingServer.start(dialect, 32);
    return {
      embedder: make(server.url, { dimensions: 32, retryBaseDelayMs: 5 }),
      cleanup: () => server.close(),
    };
  });

  describe(`${name} when the ${dialect} server misbehaves`, () => {
    let server: FakeEmbeddingServer;
    const embedder = (options: Partial<EmbeddingHttpOptions> & { batchSize?: number } = {}) =>
      make(server.url, { dimensions: 16, retryBaseDelayMs: 5, ...options });
    const expectEmbedderFailed = (error: Error) => {
      expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
      expect(error.message).toBe("failed to generate embedding");
    };

    beforeEach(async () => {
      server = await FakeEmbeddingServer.start(dialect, 16);
    });
    afterEach(async () => {
      await server.close();
    });

    it("sends batches of at most batchSize and keeps the order", async () => {
      const texts = Array.from({ length: 25 }, (_, i) => `text ${i}`);
      const vectors = await embedder({ batchSize: 10 }).embedDocuments(texts);
      expect(server.requests.map((r) => r.texts.length)).toEqual([10, 10, 5]);
      expect(vectors[24]).toEqual((await embedder().embedDocuments(["text 24"]))[0]);
    });

    it("retries after a 429 and a 503 and answers", async () => {
      server.failNext({ kind: "status", status: 429 }, { kind: "status", status: 503 });
      expect(await embedder().embedQuery("hello")).toHaveLength(16);
      expect(server.requests).toHaveLength(3);
    });

    it("waits as long as Retry-After asks before retrying", async () => {
      server.failNext({ kind: "status", status: 429, retryAfter: "1" });
      await embedder().embedQuery("hello");
      const [first, second] = server.requests;
      expect((second?.atMs ?? 0) - (first?.atMs ?? 0)).toBeGreaterThanOrEqual(950);
    });

    it("gives up at once when Retry-After asks for longer than the call may take", async () => {
      server.failAlways({ kind: "status", status: 429, retryAfter: "3600" });
      expectEmbedderFailed(await failure(embedder({ maxElapsedMs: 2000 }).embedQuery("hello")));
      expect(server.requests).toHaveLength(1);
    });

    it("retries a dropped connection", async () => {
      server.failNext({ kind: "drop" });
      expect(await embedder().embedQuery("hello")).toHaveLength(16);
    });

    it("stops after maxRetries when the server keeps failing", async () => {
      server.failAlways({ kind: "status", status: 500 });
      expectEmbedderFailed(await failure(embedder({ maxRetries: 2 }).embedDocuments(["a"])));
      expect(server.requests).toHaveLength(3);
    });

    it("does not retry a refusal (401, 400, 404)", async () => {
      server.failAlways({ kind: "status", status: 401 });
      expectEmbedderFailed(await failure(embedder().embedQuery("hello")));
      expect(server.requests).toHaveLength(1);
    });

    it("gives up on a slow answer at its timeout instead of hanging", async () => {
      server.failAlways({ kind: "slow", delayMs: 120_000 });
      expectEmbedderFailed(
        await failure(embedder({ timeoutMs: 200, maxRetries: 1 }).embedQuery("hello")),
      );
      expect(server.requests).toHaveLength(2);
    });

    it("gives up on a body that stalls half-way", async () => {
      server.failAlways({ kind: "stall-body" });
      expectEmbedderFailed(
        await failure(embedder({ timeoutMs: 200, maxRetries: 0 }).embedQuery("hello")),
      );
    });

    it.each(["malformed", "wrong-count", "wrong-dimension"] as const)(
      "fails clearly on a %s answer, without retrying it",
      async (kind) => {
        server.failAlways({ kind });
        expectEmbedderFailed(await failure(embedder().embedDocuments(["a", "b"])));
        expect(server.requests).toHaveLength(1);
      },
    );

    it("fails clearly when nothing listens, naming the URL and the errno in the cause", async () => {
      const url = server.url;
      await server.close();
      const error = await failure(embedder({ maxRetries: 1 }).embedQuery("hello"));
      expectEmbedderFailed(error);
      const cause = (error.cause as Error).message;
      expect(cause).toContain(`POST ${url.replace(/\/+$/, "")}/`);
      expect(cause).toContain("ECONNREFUSED");
      server = await FakeEmbeddingServer.start(dialect, 16);
    });
  });
}
