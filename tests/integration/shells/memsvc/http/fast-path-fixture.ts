import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AgentServicesError } from "../../../../../core/errors.js";
import { MemoryService } from "../../../../../core/memory/index.js";
import type { MemoryApi } from "../../../../../core/memory/memory-api.js";
import {
  FakeEmbedder,
  InMemoryVectorStore,
  ManualClock,
} from "../../../../../core/testing/index.js";

export const TOKEN = "tok";
export const AUTH = { Authorization: `Bearer ${TOKEN}` };

/**
 * A memory service over the in-memory fakes with predictable ids, so that two of them given the
 * same requests in the same order answer the same bytes. Searching for "store down" fails as a
 * dead store does, "crash" as a bug does (the message must not reach the client).
 */
export async function makeMemory(): Promise<MemoryApi> {
  let next = 0;
  const service = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder: new FakeEmbedder(),
    clock: new ManualClock("2026-11-21T10:00:00.000Z"),
    newId: () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`,
  });
  await service.init();
  const search: MemoryApi["search"] = async (input) => {
    const message = (input as { message?: unknown }).message;
    if (message === "store down") {
      throw new AgentServicesError("store_unavailable", "chroma at http://10.0.0.7 refused");
    }
    if (message === "crash") throw new Error("bug in /srv/secret/engine.ts");
    return service.search(input);
  };
  return new Proxy(service, {
    get(target, name) {
      if (name === "search") return search;
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A server on a free loopback port and its base URL. */
export async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Closes a server from {@link listen}, its keep-alive connections included. */
export async function close({ server }: { server: Server }): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
