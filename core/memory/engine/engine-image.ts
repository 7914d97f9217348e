/**
 * The `MemoryEngine`'s held memories and built index as plain data (an engine snapshot of a
 * replica: see `EngineImages`). The memories are columns aligned with the index's slots (row i
 * is the memory in slot i, whose id is `index.ids[i]`), so nothing is held twice and a restore
 * builds each memory once, without decoding metadata or ISO instants.
 */
import type { HybridIndexImage } from "../../retrieval/index-image.js";
import { PostingArena } from "../../retrieval/posting-arena.js";
import type { RetrievalIndex } from "../../retrieval/retrieval-index.js";
import { VectorMatrix } from "../../retrieval/vector-matrix.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "../model/types.js";
import type { CreatedOrder } from "./created-order.js";
import { HeldColumns } from "./held-columns.js";
import { HeldMemory, type Interner } from "./held-memory.js";

/**
 * One engine as data. Instants are epoch ms; `types` and `scopes` index `MEMORY_TYPES` and
 * `MEMORY_SCOPES`; `projects` and `tags` index `projectNames` and `tagLists`; `order` lists the
 * rows by (created, id), the listing order.
 *
 * @example
 * const image = engine.image();
 * const copy = new MemoryEngine(createHybridIndex(), options);
 * copy.restore(image); // holds and answers exactly as engine
 */
export interface EngineImage {
  readonly index: HybridIndexImage;
  readonly contents: readonly string[];
  readonly hashes: readonly string[];
  readonly created: Float64Array<ArrayBuffer>;
  readonly updated: Float64Array<ArrayBuffer>;
  readonly lastAccessed: Float64Array<ArrayBuffer>;
  readonly expires: Float64Array<ArrayBuffer>;
  readonly confidence: Float64Array<ArrayBuffer>;
  readonly accessCount: Float64Array<ArrayBuffer>;
  readonly types: Uint8Array<ArrayBuffer>;
  readonly scopes: Uint8Array<ArrayBuffer>;
  readonly projects: Int32Array<ArrayBuffer>;
  readonly projectNames: readonly string[];
  readonly tags: Int32Array<ArrayBuffer>;
  readonly tagLists: readonly (readonly string[])[];
  readonly order: Int32Array<ArrayBuffer>;
}

/**
 * The image of an engine's memories (`entries`, their numbers in `heldColumns`) and index;
 * `undefined` when the index keeps no image or does not hold exactly the engine's memories.
 */
export function engineImage(
  index: RetrievalIndex,
  entries: ReadonlyMap<string, HeldMemory>,
  order: CreatedOrder<HeldMemory>,
  heldColumns: HeldColumns,
): EngineImage | undefined {
  const indexImage = index.image?.();
  if (indexImage === undefined || indexImage.ids.length !== entries.size) return undefined;
  const n = entries.size;
  const columns = {
    created: new Float64Array(n),
    updated: new Float64Array(n),
    lastAccessed: new Float64Array(n),
    expires: new Float64Array(n),
    confidence: new Float64Array(n),
    accessCount: new Float64Array(n),
    types: new Uint8Array(n),
    scopes: new Uint8Array(n),
    projects: new Int32Array(n),
    tags: new Int32Array(n),
  };
  const contents = new Array<string>(n);
  const hashes = new Array<string>(n);
  const projectNames = new Map<string, number>();
  const tagLists = new Map<readonly string[], number>();
  // The image row of each held memory, by its row in `heldColumns` (no map keyed by objects).
  const imageRowOf = new Int32Array(heldColumns.rows).fill(-1);
  for (let row = 0; row < n; row += 1) {
    const held = entries.get(indexImage.ids[row] as string);
    if (held === undefined) return undefined;
    imageRowOf[held.row] = row;
    contents[row] = held.content;
    hashes[row] = held.hash;
    columns.created[row] = held.createdMs;
    columns.updated[row] = held.updatedMs;
    columns.lastAccessed[row] = held.lastAccessedMs;
    columns.expires[row] = held.expiresAtMs;
    columns.confidence[row] = held.confidence;
    columns.accessCount[row] = held.accessCount;
    columns.types[row] = MEMORY_TYPES.indexOf(held.type);
    columns.scopes[row] = MEMORY_SCOPES.indexOf(held.scope);
    columns.projects[row] = numbered(projectNames, held.project);
    // Tag lists are shared by the interner: the same list is the same object.
    columns.tags[row] = numbered(tagLists, held.tags);
  }
  const orderRows = new Int32Array(n);
  let at = 0;
  for (const held of order.walk("oldest")) orderRows[at++] = imageRowOf[held.row] ?? -1;
  if (at !== n) return undefined;
  return {
    index: indexImage,
    contents,
    hashes,
    ...columns,
    projectNames: [...projectNames.keys()],
    tagLists: [...tagLists.keys()],
    order: orderRows,
  };
}

/**
 * Restores an image into an empty engine's `index`, then calls `hold` with each memory in
 * listing order; returns the columns that hold their numbers (row i: the image's row i). Throws
 * when the image is inconsistent; `undefined` when the index refuses it (another tokenizer, or an
 * image saved before the index kept a store order), nothing held then.
 */
export function restoreEngine(
  image: EngineImage,
  index: RetrievalIndex,
  interner: Interner,
  hold: (held: HeldMemory) => void,
): HeldColumns | undefined {
  const n = image.index.ids.length;
  const { contents, hashes, created, updated, lastAccessed, expires, confidence } = image;
  const all = [contents, hashes, created, updated, lastAccessed, expires, confidence, image.order];
  if ([...all, image.accessCount].some((column) => column.length !== n)) {
    throw new Error("engine image: its columns disagree on the number of memories");
  }
  if (index.restore === undefined || !index.restore(image.index)) return undefined;
  const columns = HeldColumns.of(image, n);
  const projects = image.projectNames.map((name) => interner.project(name));
  const tagLists = image.tagLists.map((tags) => interner.tags(tags));
  for (const row of image.order) {
    const type = MEMORY_TYPES[image.types[row] as number];
    const scope = MEMORY_SCOPES[image.scopes[row] as number];
    const project = projects[image.projects[row] as number];
    const tags = tagLists[image.tags[row] as number];
    if (type === undefined || scope === undefined || project === undefined || tags === undefined) {
      throw new Error(`engine image: row ${row} names an unknown type, scope, project or tags`);
    }
    const held = HeldMemory.restored(
      image.index.ids[row] as string,
      image.contents[row] as string,
      image.hashes[row] as string,
      image.created[row] as number,
      columns,
      row,
    );
    held.type = type;
    held.scope = scope;
    held.project = project;
    held.tags = tags;
    // The index took the image, so it holds a store order: the memory's insertion number.
    held.tie = image.index.order?.tie[row] ?? 0;
    hold(held);
  }
  return columns;
}

/** The arrays of an engine image's posting arena that take spare room at a read. */
const ROOMY_ARENA = new Set(["slots", "counts", "lengths", "docPool"]);

/**
 * Where a reader of saved engine images (of vectors of `dimensions`) puts their arrays so that a
 * restore takes them over: the vectors straight into a vector matrix's memory, the posting
 * arena's arrays with spare room (see `VectorMatrix.reserveImage`, `PostingArena.roomyArray`).
 * Called with each array's path in the image, its type's name and length; `undefined` for any
 * other array (the reader makes a new one). Expects an image's vectors rows, codes and scales in
 * that order (the order of {@link EngineImage}). Its type is the port's `SnapshotArrayPlacer`,
 * spelled out: the port imports this file's types, so importing it back would make a cycle.
 *
 * @example
 * const place = engineImagePlacer(100);
 * place(["index", "vectors", "rows"], "Float32Array", 100 * 1000); // a view of the matrix
 */
export function engineImagePlacer(
  dimensions: number,
): (path: readonly string[], type: string, length: number) => ArrayBufferView | undefined {
  let vectors: Partial<NonNullable<ReturnType<typeof VectorMatrix.reserveImage>>> = {};
  return (path, type, length) => {
    const key = path.join(".");
    if (key.startsWith("index.postings.arena.") && ROOMY_ARENA.has(path[3] ?? "")) {
      return path.length === 4 ? PostingArena.roomyArray(type, length) : undefined;
    }
    if (key === "index.vectors.rows" && type === "Float32Array" && dimensions > 0) {
      vectors = VectorMatrix.reserveImage(dimensions, length) ?? {};
      return vectors.rows;
    }
    const reserved =
      key === "index.vectors.codes"
        ? vectors.codes
        : key === "index.vectors.scales"
          ? vectors.scales
          : undefined;
    const fits =
      reserved !== undefined && reserved.length === length && reserved.constructor.name === type;
    return fits ? reserved : undefined;
  };
}

function numbered<K>(numbers: Map<K, number>, key: K): number {
  let number = numbers.get(key);
  if (number === undefined) numbers.set(key, (number = numbers.size));
  return number;
}
