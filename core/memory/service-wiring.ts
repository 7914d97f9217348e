import { createHybridIndex } from "../retrieval/hybrid-index.js";
import { AccessWriteBehind } from "../storage/access-write-behind.js";
import { MemoryEngine } from "./engine/memory-engine.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import { KeyedLock } from "./keyed-lock.js";
import type { MemoryServiceDeps } from "./memory-service-deps.js";
import { neighbourLiftOf } from "./neighbour-lift.js";
import { contentHashWith, PURE_TEXT_HASHER } from "./model/content-key.js";
import { accessKeys } from "./model/metadata-updates.js";
import type { MemoryServiceOptions } from "./model/types.js";
import { addAccesses, replicate, type Replica } from "./replica.js";
import type { ServiceContext } from "./service-context.js";

/** The parts a `MemoryService` runs on, built once from its deps by {@link wireMemoryService}. */
export interface ServiceParts {
  /** The engine the use cases read and write (in replica mode, noting local writes). */
  readonly engine: MemoryReadModel;
  /** Replica mode: the follower of the shared store's changes, its feed and cluster locks. */
  readonly replica: Replica | undefined;
  /** Recall's access counts, written behind the answer. */
  readonly accesses: AccessWriteBehind;
  /** What every use case works with. */
  readonly context: ServiceContext;
}

/**
 * Builds what a `MemoryService` runs on from its deps and validated options: the engine over the
 * (empty) retrieval index, the replica wiring when `deps` carry a feed and cluster locks (owner
 * mode: a {@link KeyedLock}), the access write-behind (to the store, or through the cluster
 * locks), and the {@link ServiceContext} the use cases share. `warn` receives what is skipped or
 * failed behind an answer. Throws when the index is not empty or only one of feed and locks is
 * given.
 *
 * @example
 * const { engine, context } = wireMemoryService(deps, options, (message) => log(message));
 */
export function wireMemoryService(
  deps: MemoryServiceDeps,
  options: MemoryServiceOptions,
  warn: (message: string, cause: unknown) => void,
  nowMs: () => number,
): ServiceParts {
  const index = deps.index ?? createHybridIndex({ neighbourLift: neighbourLiftOf(options) });
  if (index.size !== 0) throw new Error("MemoryService: the retrieval index must be empty");
  if ((deps.feed === undefined) !== (deps.locks === undefined)) {
    throw new Error("MemoryService: replica mode needs both a feed and locks");
  }
  const built = new MemoryEngine(index, options);
  const replica =
    deps.feed === undefined || deps.locks === undefined
      ? undefined
      : replicate(built, {
          store: deps.store,
          feed: deps.feed,
          locks: deps.locks,
          skip: (record, error) =>
            warn(`skipped memory record ${record.id}: it cannot be read`, error),
          onFollowerEvent: deps.onFollowerEvent,
          followerRetryDelay: deps.followerRetryDelay,
        });
  const engine = replica?.engine ?? built;
  const locks = replica?.locks ?? new KeyedLock();
  const parts = { store: deps.store, engine, locks, options };
  const accesses = new AccessWriteBehind({
    current: (id) => {
      const memory = engine.peek(id);
      return memory === undefined ? undefined : accessKeys(memory);
    },
    write:
      replica === undefined
        ? (updates) => deps.store.updateMetadata(updates)
        : (updates) => addAccesses(parts, updates),
    warn,
    ...(deps.accessWriteDelay === undefined ? {} : { delay: deps.accessWriteDelay }),
  });
  const hasher = deps.hasher ?? PURE_TEXT_HASHER;
  const context: ServiceContext = {
    engine,
    store: deps.store,
    embedder: deps.embedder,
    lock: locks,
    accesses,
    options,
    nowMs,
    newId: deps.newId ?? (() => globalThis.crypto.randomUUID()),
    contentHash: (content) => contentHashWith(hasher, content),
    idsTakenElsewhere: deps.idsTakenElsewhere,
    optimistic: replica?.optimistic,
  };
  return { engine, replica, accesses, context };
}
