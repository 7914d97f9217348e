import { randomUUID } from "node:crypto";
import { ChromaClient } from "chromadb";
import { describe, expect, inject, it } from "vitest";

describe("the integration project's Chroma server", () => {
  const url = new URL(inject("chromaUrl"));

  it("answers its heartbeat on a loopback port", async () => {
    expect(url.hostname).toBe("127.0.0.1");
    const response = await fetch(new URL("/api/v2/heartbeat", url));
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty(["nanosecond heartbeat"]);
  });

  it("creates a collection, stores a record, reads it back and deletes the collection", async () => {
    const client = new ChromaClient({ host: url.hostname, port: Number(url.port) });
    const name = `server-check-${randomUUID()}`;
    const collection = await client.createCollection({ name, embeddingFunction: null });
    try {
      await collection.add({ ids: ["a"], embeddings: [[1, 0]], documents: ["hello"] });
      const got = await collection.get({ ids: ["a"] });
      expect(got.documents).toEqual(["hello"]);
    } finally {
      await client.deleteCollection({ name });
    }
    const names = (await client.listCollections()).map((c) => c.name);
    expect(names).not.toContain(name);
  });
});
