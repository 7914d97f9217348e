import { AgentServicesError } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";
import type { VectorStore } from "../ports/vector-store.js";
import type { KeyedLock } from "./keyed-lock.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import type { MemoryScope, MemoryServiceOptions, MemoryType } from "./types.js";

/**
 * What the memory use cases beyond the seed's (list, update, delete by filter, export, import)
 * share with the {@link MemoryService} that runs them: its engine, store, embedder, locks and
 * clock. The service builds one and passes it; each use case lives in its own file.
 *
 * @example
 * const page = listMemories(this.#context, input);
 */
export interface ServiceContext {
  /** The engine (owner mode) or the store's own queries (replica mode). */
  readonly engine: MemoryReadModel;
  readonly store: VectorStore;
  readonly embedder: Embedder;
  readonly lock: KeyedLock;
  readonly options: MemoryServiceOptions;
  /** The clock's instant in epoch ms. */
  nowMs(): number;
  newId(): string;
}

/**
 * The lock key of a content key: "find a duplicate, else insert" takes turns per key.
 *
 * @example
 * await lock.run(rememberLockKey(body, hash), insertUnlessDuplicate);
 */
export function rememberLockKey(
  body: { readonly type: MemoryType; readonly scope: MemoryScope; readonly project: string },
  hash: string,
): string {
  return ["remember", hash, body.type, body.scope, body.project].join("\u0000");
}

/**
 * The lock key of one memory: merges into it, its updates and its deletion take turns.
 *
 * @example
 * await lock.run(idLockKey(id), deleteIt);
 */
export function idLockKey(id: string): string {
  return `id\u0000${id}`;
}

/**
 * The error of an unknown or expired memory id.
 *
 * @example
 * if (memory === undefined) throw memoryNotFound(id);
 */
export function memoryNotFound(id: string): AgentServicesError {
  return new AgentServicesError("not_found", `memory ${id} not found`);
}
