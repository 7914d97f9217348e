import type { EngineSnapshot, EngineSnapshots } from "../ports/engine-snapshots.js";
import type { VectorRecord } from "../ports/vector-store.js";

/**
 * {@link EngineSnapshots} in memory (copies of the records, so later changes to the engine do not
 * leak into a saved snapshot), with counters of what was saved and loaded.
 *
 * @example
 * const snapshots = new InMemoryEngineSnapshots();
 * const service = new MemoryService({ store, embedder, clock, snapshots });
 */
export class InMemoryEngineSnapshots implements EngineSnapshots {
  #saved: { mark: string; records: VectorRecord[] } | undefined;
  /** How many times a snapshot was saved. */
  saves = 0;
  /** How many times a saved snapshot was handed out by `load`. */
  loads = 0;

  async load(): Promise<EngineSnapshot | undefined> {
    const saved = this.#saved;
    if (saved === undefined) return undefined;
    this.loads += 1;
    return {
      mark: saved.mark,
      count: saved.records.length,
      *pages(pageSize: number) {
        for (let i = 0; i < saved.records.length; i += pageSize) {
          yield saved.records.slice(i, i + pageSize);
        }
      },
    };
  }

  async save(mark: string, records: Iterable<VectorRecord>): Promise<void> {
    this.#saved = {
      mark,
      records: [...records].map((r) => ({
        ...r,
        vector: [...r.vector],
        metadata: { ...r.metadata },
      })),
    };
    this.saves += 1;
  }
}
