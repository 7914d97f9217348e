import type { EngineSnapshots } from "../ports/engine-snapshots.js";
import type { ScanPage, VectorRecord, VectorStore } from "../ports/vector-store.js";
import type { MemoryReadModel } from "../memory/engine/read-model.js";

/** Records read per page when the engine is loaded at startup. */
export const LOAD_PAGE_SIZE = 1000;

/** Progress of the startup load. */
export interface LoadProgress {
  /** Records read so far. */
  readonly loaded: number;
  /** Records to read (in the store or the snapshot when the load began). */
  readonly total: number;
}

/** Where the engine was loaded from. */
export type LoadSource = "store" | "snapshot";

/** What {@link loadEngine} and {@link saveEngineSnapshot} work with. */
export interface EngineLoadDeps {
  readonly store: VectorStore;
  readonly engine: MemoryReadModel;
  readonly snapshots?: EngineSnapshots | undefined;
  /** Told about a record that cannot be read (it is skipped). */
  readonly skip: (record: VectorRecord, error: unknown) => void;
}

/**
 * Loads every stored memory into the engine: from the snapshot when the store still carries the
 * mark it was saved under, else from the store page by page. Then clears the store's mark, so
 * the snapshot stops counting before this process writes anything (a crash from here on means a
 * full load next time). Resolves with where the records came from.
 *
 * @example
 * const source = await loadEngine({ store, engine, snapshots, skip }, ({ loaded, total }) => …);
 */
export async function loadEngine(
  deps: EngineLoadDeps,
  onProgress?: (progress: LoadProgress) => void,
): Promise<LoadSource> {
  const { store, snapshots } = deps;
  const mark = snapshots === undefined ? undefined : await store.readSnapshotMark?.();
  const snapshot = mark === undefined ? undefined : await snapshots?.load();
  let source: LoadSource = "store";
  if (snapshot !== undefined && snapshot.mark === mark) {
    let loaded = 0;
    for (const page of snapshot.pages(LOAD_PAGE_SIZE)) {
      loadPage(deps, page);
      loaded += page.length;
      onProgress?.({ loaded, total: snapshot.count });
    }
    source = "snapshot";
  } else {
    await loadFromStore(deps, onProgress);
  }
  deps.engine.settle?.();
  if (mark !== undefined) await store.writeSnapshotMark?.(undefined);
  return source;
}

/**
 * Saves what the engine holds as the snapshot and then marks the store with it; false (and
 * nothing saved) when there is nowhere to save it or the store keeps no mark. Call at shutdown,
 * after the last write to the store has landed: any later write must clear the mark first.
 */
export async function saveEngineSnapshot(
  deps: Pick<EngineLoadDeps, "store" | "engine" | "snapshots">,
  mark: string,
): Promise<boolean> {
  const { store, engine, snapshots } = deps;
  if (snapshots === undefined || !engine.loadsFromStore) return false;
  if (store.writeSnapshotMark === undefined || store.readSnapshotMark === undefined) return false;
  await snapshots.save(mark, engine.records());
  await store.writeSnapshotMark(mark);
  return true;
}

async function loadFromStore(
  deps: EngineLoadDeps,
  onProgress: ((progress: LoadProgress) => void) | undefined,
): Promise<void> {
  const total = await deps.store.count();
  let loaded = 0;
  let next: Promise<ScanPage> | undefined = deps.store.scan(undefined, LOAD_PAGE_SIZE);
  while (next !== undefined) {
    const page: ScanPage = await next;
    // The next page is read while this one is decoded and indexed (the store works meanwhile).
    next = page.next === undefined ? undefined : deps.store.scan(page.next, LOAD_PAGE_SIZE);
    next?.catch(() => undefined);
    loadPage(deps, page.records);
    loaded += page.records.length;
    onProgress?.({ loaded, total });
  }
}

function loadPage(deps: EngineLoadDeps, records: readonly VectorRecord[]): void {
  for (const record of records) {
    try {
      deps.engine.load(record);
    } catch (error) {
      deps.skip(record, error);
    }
  }
}
