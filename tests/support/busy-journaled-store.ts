import { JournaledVectorStore } from "../../core/index.js";
import { InMemoryVectorStore, InMemoryWriteJournal } from "../../core/testing/index.js";

/**
 * A write journal with room for `maxPendingIds` ids in front of a store that takes no write
 * until `release()`: once the backlog is full a writer is refused at once (`store_busy`), as the
 * embedded Chroma's writers are when an import outruns it.
 *
 * @example
 * const { store, release } = busyJournaledStore(400);
 */
export function busyJournaledStore(maxPendingIds: number): {
  store: JournaledVectorStore;
  release: () => void;
} {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  class HeldStore extends InMemoryVectorStore {
    override async upsert(...args: Parameters<InMemoryVectorStore["upsert"]>) {
      await held;
      return super.upsert(...args);
    }
  }
  const store = new JournaledVectorStore(new HeldStore(), new InMemoryWriteJournal(), {
    retryDelay: () => Promise.resolve(),
    maxPendingIds,
    roomWait: () => Promise.resolve(),
  });
  return { store, release: () => release() };
}
