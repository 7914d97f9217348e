import { randomUUID } from "node:crypto";
import { ChromaClient } from "chromadb";
import { inject } from "vitest";
import { ChromaVectorQuery } from "../../../adapters/chroma/chroma-vector-query.js";
import { ChromaVectorStore } from "../../../adapters/chroma/chroma-vector-store.js";
import { describeVectorQueryContract } from "../../contracts/vector-query-contract.js";

const chromaUrl = inject("chromaUrl");

/**
 * The replica-mode query port on the real Chroma of the global setup: records are written with
 * a `ChromaVectorStore` and read back through a `ChromaVectorQuery` on the same fresh collection.
 * The unit twin is `InMemoryVectorStore` (tests/unit/core/in-memory-vector-store.test.ts).
 */
describeVectorQueryContract("ChromaVectorQuery", async () => {
  const collection = `query-${randomUUID()}`;
  const store = new ChromaVectorStore({ url: chromaUrl, collection });
  return {
    store,
    query: new ChromaVectorQuery({ url: chromaUrl, collection }),
    cleanup: async () => {
      await store.close();
      const url = new URL(chromaUrl);
      await new ChromaClient({ host: url.hostname, port: Number(url.port) })
        .deleteCollection({ name: collection })
        .catch(() => undefined);
    },
  };
});
