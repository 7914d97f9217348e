import { afterEach, describe, expect, it } from "vitest";
import { OllamaEmbedder } from "../../../adapters/ollama/index.js";
import { OpenAiEmbedder } from "../../../adapters/openai/index.js";
import { MemoryService } from "../../../core/memory/index.js";
import { InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";
import { describeHttpEmbedderContract } from "../../contracts/http-embedder-contract.js";
import { FakeEmbeddingServer } from "../../support/fake-embedding-server.js";

describeHttpEmbedderContract(
  "OllamaEmbedder",
  "ollama",
  (url, options) => new OllamaEmbedder({ ...options, baseUrl: url }),
);
describeHttpEmbedderContract(
  "OpenAiEmbedder",
  "openai",
  (url, options) => new OpenAiEmbedder({ ...options, baseUrl: url }),
);

describe("the HTTP embedders' wire format", () => {
  let server: FakeEmbeddingServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it("Ollama: POST /api/embed with the model and the texts; dimensions only when asked", async () => {
    server = await FakeEmbeddingServer.start("ollama", 768);
    const embedder = new OllamaEmbedder({ baseUrl: server.url });
    expect(embedder.id).toBe("ollama:nomic-embed-text:768");
    await embedder.embedDocuments(["a b"]);
    await new OllamaEmbedder({
      baseUrl: server.url,
      dimensions: 64,
      requestDimensions: true,
    }).embedQuery("q");
    expect(server.requests.map((r) => r.body)).toEqual([
      { model: "nomic-embed-text", input: ["a b"] },
      { model: "nomic-embed-text", input: ["q"], dimensions: 64 },
    ]);
  });

  it("OpenAI: POST /v1/embeddings with the key, float encoding, and answers put back in index order", async () => {
    server = await FakeEmbeddingServer.start("openai", 8);
    const embedder = new OpenAiEmbedder({
      baseUrl: server.url,
      apiKey: "sk-test",
      model: "m",
      dimensions: 8,
    });
    expect(embedder.id).toBe("openai:m:8");
    const [a, b] = await embedder.embedDocuments(["alpha", "beta"]);
    expect(a).toEqual(await embedder.embedQuery("alpha"));
    expect(b).toEqual(await embedder.embedQuery("beta"));
    expect(server.requests[0]).toMatchObject({
      authorization: "Bearer sk-test",
      body: { model: "m", input: ["alpha", "beta"], encoding_format: "float" },
    });
    await new OpenAiEmbedder({ baseUrl: server.url, model: "m", dimensions: 8 }).embedQuery("x");
    expect(server.requests.at(-1)?.authorization).toBeUndefined();
  });

  it("never puts the API key in an error message", async () => {
    server = await FakeEmbeddingServer.start("openai", 8);
    server.failAlways({ kind: "status", status: 401 });
    const error = await new OpenAiEmbedder({
      baseUrl: server.url,
      apiKey: "sk-secret",
      dimensions: 8,
    })
      .embedQuery("x")
      .catch((e: unknown) => e as Error);
    expect(String(error)).not.toContain("sk-secret");
    expect(
      JSON.stringify((error as Error).cause, Object.getOwnPropertyNames((error as Error).cause)),
    ).not.toContain("sk-secret");
  });

  it("a store written by one refuses to start with the other (no mixed vector spaces)", async () => {
    server = await FakeEmbeddingServer.start("ollama", 8);
    const store = new InMemoryVectorStore();
    const clock = new ManualClock("2026-11-21T10:00:00.000Z");
    const ollama = new MemoryService({
      store,
      clock,
      embedder: new OllamaEmbedder({ baseUrl: server.url, dimensions: 8 }),
    });
    await ollama.init();
    await ollama.remember({ content: "x" });
    const openai = new MemoryService({
      store,
      clock,
      embedder: new OpenAiEmbedder({ baseUrl: server.url, dimensions: 8 }),
    });
    await expect(openai.init()).rejects.toMatchObject({
      code: "embedder_mismatch",
      message: expect.stringContaining("ollama:nomic-embed-text:8") as unknown,
    });
  });
});
