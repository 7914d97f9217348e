import type { ArenaImage } from "./index-image.js";

/**
 * The storage of {@link LexicalPostings}: every term's posting list and every slot's distinct
 * terms in a few shared typed arrays, addressed by number. A list is a run of the shared arrays
 * with room to grow; when it is full it moves to the end with twice the room (its old run
 * becomes garbage, dropped when the arrays next grow or the slots are renumbered), so adding a
 * posting is amortised O(1) and a term costs three numbers instead of an object and three typed
 * arrays of its own (most terms of a real store are rare: ids, names, numbers).
 *
 * @example
 * const arena = new PostingArena();
 * arena.openDocument(0, 1);
 * arena.push(7, 0, 2, 12); // term 7: slot 0, counted twice, document of 12 terms
 * arena.addDocumentTerm(0, 7);
 * arena.slots[arena.start(7)]; // 0
 *
 * Long because: one class over shared typed arrays whose layout every method (and its image,
 * for engine snapshots) shares; apart, raw offsets would cross files.
 */
export class PostingArena {
  /** Per term: where its run starts, how many postings it holds, how many it has room for. */
  #start = new Int32Array(64);
  #length = new Int32Array(64);
  #capacity = new Int32Array(64);
  #terms = 0;
  /** The postings: slot, count, capped document length. */
  #slots = new Int32Array(256);
  #counts = new Uint16Array(256);
  #lengths = new Uint16Array(256);
  #used = 0;
  #garbage = 0;
  /** Per slot: where its distinct terms start in {@link #docPool}, and their count + 1 (0: none). */
  #docStart = new Int32Array(64);
  #docCount = new Int32Array(64);
  #docPool = new Int32Array(256);
  #docUsed = 0;
  #docGarbage = 0;

  /** The postings' slots (a view: valid until the next push or remap). */
  get slots(): Int32Array {
    return this.#slots;
  }

  /** The postings' term counts (valid like {@link slots}). */
  get counts(): Uint16Array {
    return this.#counts;
  }

  /** The postings' capped document lengths (valid like {@link slots}). */
  get lengths(): Uint16Array {
    return this.#lengths;
  }

  /** Where a term's postings start in {@link slots}. */
  start(term: number): number {
    return term < this.#terms ? (this.#start[term] as number) : 0;
  }

  /** How many postings a term has (stale ones included). */
  length(term: number): number {
    return term < this.#terms ? (this.#length[term] as number) : 0;
  }

  /** Appends a posting to a term's list. */
  push(term: number, slot: number, count: number, length: number): void {
    if (term >= this.#terms) this.#addTerms(term + 1);
    let at = this.#start[term] as number;
    const size = this.#length[term] as number;
    const room = this.#capacity[term] as number;
    if (size === room) {
      const grown = room === 0 ? 1 : room * 2;
      this.#reserve(grown);
      const to = this.#used;
      at = this.#start[term] as number;
      this.#slots.copyWithin(to, at, at + size);
      this.#counts.copyWithin(to, at, at + size);
      this.#lengths.copyWithin(to, at, at + size);
      this.#garbage += room;
      this.#used += grown;
      this.#start[term] = at = to;
      this.#capacity[term] = grown;
    }
    this.#slots[at + size] = slot;
    this.#counts[at + size] = count;
    this.#lengths[at + size] = length;
    this.#length[term] = size + 1;
  }

  /** The arena without garbage or spare room, as views of its arrays (see `index-image.ts`). */
  image(slotCount: number): ArenaImage {
    let spare = this.#garbage;
    for (let t = 0; t < this.#terms && spare === 0; t += 1) {
      spare += (this.#capacity[t] as number) - (this.#length[t] as number);
    }
    if (spare > 0) this.#repack();
    if (this.#docGarbage > 0) this.#reserveDocuments(0);
    const [n, used, view] = [
      this.#terms,
      this.#used,
      <T extends Int32Array | Uint16Array>(a: T, end: number) => a.subarray(0, end) as T,
    ];
    return {
      start: view(this.#start, n),
      length: view(this.#length, n),
      slots: view(this.#slots, used),
      counts: view(this.#counts, used),
      lengths: view(this.#lengths, used),
      docStart: view(this.#docStart, slotCount),
      docCount: view(this.#docCount, slotCount),
      docPool: view(this.#docPool, this.#docUsed),
    };
  }

  /**
   * An arena holding an image (its arrays taken over, not copied; with the spare room behind
   * those of {@link PostingArena.roomyArray}, so the postings added next do not first copy it).
   */
  static fromImage(i: ArenaImage): PostingArena {
    const arena = new PostingArena();
    if (i.start.length > 0)
      [arena.#start, arena.#length, arena.#capacity] = [i.start, i.length, i.length.slice()];
    [arena.#terms, arena.#used, arena.#docUsed] = [
      i.start.length,
      i.slots.length,
      i.docPool.length,
    ];
    const room = Math.min(...[i.slots, i.counts, i.lengths].map(roomOf));
    [arena.#slots, arena.#counts, arena.#lengths] = [
      withRoom(i.slots, room),
      withRoom(i.counts, room),
      withRoom(i.lengths, room),
    ];
    [arena.#docStart, arena.#docCount] = [i.docStart, i.docCount];
    arena.#docPool = withRoom(i.docPool, roomOf(i.docPool));
    return arena;
  }

  /**
   * An empty array of `length` for an image's `slots`, `counts`, `lengths` or `docPool` (of
   * type `type`), with room for twice as many more that {@link PostingArena.fromImage} takes
   * (memory that is never written costs nothing); `undefined` for another type.
   *
   * @example
   * const slots = PostingArena.roomyArray("Int32Array", 1000); // slots.length === 1000
   */
  static roomyArray(type: string, length: number): Int32Array | Uint16Array | undefined {
    const Type = type === "Int32Array" ? Int32Array : type === "Uint16Array" ? Uint16Array : null;
    if (Type === null) return undefined;
    const array = new Type(new ArrayBuffer(length * ROOM_FACTOR * Type.BYTES_PER_ELEMENT));
    const view = array.subarray(0, length);
    ROOMY.set(view, array);
    return view;
  }

  /** Makes room for the distinct terms (`count` of them) of a new document in `slot`. */
  openDocument(slot: number, count: number): void {
    if (slot >= this.#docStart.length) {
      const size = Math.max(slot + 1, this.#docStart.length * 2);
      this.#docStart = grown(this.#docStart, size);
      this.#docCount = grown(this.#docCount, size);
    }
    if (this.#docUsed + count > this.#docPool.length) this.#reserveDocuments(count);
    this.#docStart[slot] = this.#docUsed;
    this.#docCount[slot] = 1;
    this.#docUsed += count;
  }

  /** Adds one distinct term to the document opened last in `slot`. */
  addDocumentTerm(slot: number, term: number): void {
    const n = this.#docCount[slot] as number;
    this.#docPool[(this.#docStart[slot] as number) + n - 1] = term;
    this.#docCount[slot] = n + 1;
  }

  /** Whether a slot holds a document. */
  hasDocument(slot: number): boolean {
    return slot < this.#docCount.length && (this.#docCount[slot] as number) > 0;
  }

  /** The number of distinct terms of a slot's document (0 when none). */
  documentTermCount(slot: number): number {
    return Math.max(0, (this.#docCount[slot] ?? 0) - 1);
  }

  /** Calls `visit` with each distinct term of a slot's document. */
  forEachDocumentTerm(slot: number, visit: (term: number) => void): void {
    const start = this.#docStart[slot] as number;
    const end = start + this.documentTermCount(slot);
    for (let i = start; i < end; i += 1) visit(this.#docPool[i] as number);
  }

  /** Forgets a slot's document terms (its postings stay, stale, until {@link remap}). */
  closeDocument(slot: number): void {
    this.#docGarbage += this.documentTermCount(slot);
    this.#docCount[slot] = 0;
  }

  /**
   * Renumbers slots (`newSlot[old]`, -1 for removed ones), dropping stale postings and the
   * removed slots' terms; false when some list is no longer in increasing slot order.
   */
  remap(newSlot: Int32Array, slotCount: number): boolean {
    let sorted = true;
    const slots = this.#slots;
    const counts = this.#counts;
    const lengths = this.#lengths;
    for (let term = 0; term < this.#terms; term += 1) {
      const start = this.#start[term] as number;
      const end = start + (this.#length[term] as number);
      let kept = start;
      for (let i = start; i < end; i += 1) {
        const to = newSlot[slots[i] as number] as number;
        if (to < 0) continue;
        if (kept > start && to < (slots[kept - 1] as number)) sorted = false;
        slots[kept] = to;
        counts[kept] = counts[i] as number;
        lengths[kept] = lengths[i] as number;
        kept += 1;
      }
      this.#length[term] = kept - start;
    }
    this.#repack();
    let total = 0;
    for (let old = 0; old < newSlot.length && old < this.#docCount.length; old += 1) {
      if ((newSlot[old] as number) >= 0) total += this.documentTermCount(old);
    }
    const docStart = new Int32Array(Math.max(64, slotCount));
    const docCount = new Int32Array(docStart.length);
    const pool = new Int32Array(Math.max(256, total + (total >> 1)));
    let at = 0;
    for (let old = 0; old < newSlot.length && old < this.#docCount.length; old += 1) {
      const to = newSlot[old] as number;
      if (to < 0 || !this.hasDocument(old)) continue;
      const n = this.documentTermCount(old);
      const from = this.#docStart[old] as number;
      copyRun(pool, at, this.#docPool, from, n);
      docStart[to] = at;
      docCount[to] = n + 1;
      at += n;
    }
    this.#docStart = docStart;
    this.#docCount = docCount;
    this.#docPool = pool;
    this.#docUsed = at;
    this.#docGarbage = 0;
    return sorted;
  }

  /**
   * Puts every list in increasing slot order: a counting sort of all postings by slot (a slot
   * has one posting per distinct term), O(postings), then each list refilled slot by slot with
   * the length `cappedLength(slot)`.
   */
  sortLists(slotCount: number, cappedLength: (slot: number) => number): void {
    const starts = new Int32Array(slotCount + 1);
    for (let slot = 0; slot < slotCount; slot += 1) {
      starts[slot + 1] = (starts[slot] as number) + this.documentTermCount(slot);
    }
    const termOf = new Int32Array(starts[slotCount] as number);
    const countOf = new Uint16Array(termOf.length);
    const next = starts.slice(0, slotCount);
    for (let term = 0; term < this.#terms; term += 1) {
      const start = this.#start[term] as number;
      const end = start + (this.#length[term] as number);
      for (let i = start; i < end; i += 1) {
        const slot = this.#slots[i] as number;
        const at = next[slot] as number;
        next[slot] = at + 1;
        termOf[at] = term;
        countOf[at] = this.#counts[i] as number;
      }
      this.#length[term] = 0;
    }
    for (let slot = 0; slot < slotCount; slot += 1) {
      const length = cappedLength(slot);
      for (let at = starts[slot] as number; at < (starts[slot + 1] as number); at += 1) {
        const term = termOf[at] as number;
        const i = (this.#start[term] as number) + (this.#length[term] as number);
        this.#slots[i] = slot;
        this.#counts[i] = countOf[at] as number;
        this.#lengths[i] = length;
        this.#length[term] = (this.#length[term] as number) + 1;
      }
    }
  }

  #addTerms(terms: number): void {
    if (terms > this.#start.length) {
      const size = Math.max(terms, this.#start.length * 2);
      this.#start = grown(this.#start, size);
      this.#length = grown(this.#length, size);
      this.#capacity = grown(this.#capacity, size);
    }
    this.#terms = terms;
  }

  /**
   * Room for `n` more postings at the end: the lists copied without the garbage between them,
   * into arrays twice as large as what they and `n` need.
   */
  #reserve(n: number): void {
    if (this.#used + n <= this.#slots.length) return;
    const live = this.#used - this.#garbage;
    this.#copyLists(Math.max(256, 2 * (live + n)), false);
  }

  /** Every list copied with no room to spare (after a remap: most lists stop growing). */
  #repack(): void {
    let total = 0;
    for (let term = 0; term < this.#terms; term += 1) total += this.#length[term] as number;
    this.#copyLists(Math.max(256, total + (total >> 4)), true);
  }

  #copyLists(size: number, tight: boolean): void {
    const slots = new Int32Array(size);
    const counts = new Uint16Array(size);
    const lengths = new Uint16Array(size);
    let at = 0;
    // Every list is copied (in term order) with its room, dropping the garbage between runs.
    for (let term = 0; term < this.#terms; term += 1) {
      const start = this.#start[term] as number;
      const length = this.#length[term] as number;
      copyRun(slots, at, this.#slots, start, length);
      copyRun(counts, at, this.#counts, start, length);
      copyRun(lengths, at, this.#lengths, start, length);
      this.#start[term] = at;
      if (tight) this.#capacity[term] = length;
      at += this.#capacity[term] as number;
    }
    this.#slots = slots;
    this.#counts = counts;
    this.#lengths = lengths;
    this.#used = at;
    this.#garbage = 0;
  }

  /** Room for `n` more document terms: compacts when garbage is half the use, else grows. */
  #reserveDocuments(n: number): void {
    const live = this.#docUsed - this.#docGarbage;
    const size = Math.max(256, 2 * (live + n));
    const pool = new Int32Array(size);
    let at = 0;
    for (let slot = 0; slot < this.#docCount.length; slot += 1) {
      if (!this.hasDocument(slot)) continue;
      const count = this.documentTermCount(slot);
      const from = this.#docStart[slot] as number;
      copyRun(pool, at, this.#docPool, from, count);
      this.#docStart[slot] = at;
      at += count;
    }
    this.#docPool = pool;
    this.#docUsed = at;
    this.#docGarbage = 0;
  }
}

/**
 * How many times its length a roomy array holds: room for every list to move once to twice its
 * size (at 200,000 memories, 1,000 adds after a restore: 0.35 CPU s with this, 0.8 with half as
 * much room again, which they outgrew, then copying the whole arena; bench/snapshot-restore.ts).
 */
const ROOM_FACTOR = 3;

/** Runs up to this long are copied element by element (a `subarray` view costs more). */
const SHORT_RUN = 64;

/**
 * Copies `length` elements of `source` from `start` into `target` at `at`: what
 * `target.set(source.subarray(start, start + length), at)` does, without making a view for a
 * short run (most posting lists and documents are short: a copy of the lists made three views
 * per term, ~40 % of the batch path's `subarray` garbage, measured).
 */
function copyRun<T extends Int32Array | Uint16Array>(
  target: T,
  at: number,
  source: T,
  start: number,
  length: number,
): void {
  if (length > SHORT_RUN) {
    target.set(source.subarray(start, start + length), at);
    return;
  }
  for (let k = 0; k < length; k += 1) target[at + k] = source[start + k] as number;
}

/** The whole arrays behind {@link PostingArena.roomyArray}'s views. */
const ROOMY = new WeakMap<Int32Array | Uint16Array, Int32Array | Uint16Array>();

/** How many elements the array taken over for `view` holds. */
function roomOf(view: Int32Array | Uint16Array): number {
  return ROOMY.get(view)?.length ?? view.length;
}

/** The array behind a roomy view cut to `room` elements (at least the view's). */
function withRoom<T extends Int32Array | Uint16Array>(view: T, room: number): T {
  const whole = ROOMY.get(view);
  ROOMY.delete(view);
  return whole === undefined || room <= view.length ? view : (whole.subarray(0, room) as T);
}

function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
