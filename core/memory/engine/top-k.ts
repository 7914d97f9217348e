/** One kept entry of a {@link TopK}. */
export interface Scored<T> {
  readonly score: number;
  readonly item: T;
}

/**
 * The `k` best of a stream of scored items, with a bounded min-heap: O(n log k) for n offers and
 * O(k) memory, instead of sorting all n. Higher scores are better; equal scores are ordered by
 * `tieBreak` (smaller first), so the answer never depends on the order of the offers.
 *
 * @example
 * const top = new TopK<string>(2, (a, b) => a.localeCompare(b));
 * top.offer(0.5, "b"); top.offer(0.9, "a"); top.offer(0.5, "a2");
 * top.sorted(); // [{ score: 0.9, item: "a" }, { score: 0.5, item: "a2" }]
 */
export class TopK<T> {
  readonly #k: number;
  readonly #tieBreak: (a: T, b: T) => number;
  /** Min-heap: the worst kept entry at index 0. */
  readonly #heap: Scored<T>[] = [];

  constructor(k: number, tieBreak: (a: T, b: T) => number) {
    this.#k = Math.max(0, k);
    this.#tieBreak = tieBreak;
  }

  /** Keeps the item if it is among the `k` best seen so far. */
  offer(score: number, item: T): void {
    if (this.#k === 0 || Number.isNaN(score)) return;
    const heap = this.#heap;
    if (heap.length < this.#k) {
      heap.push({ score, item });
      this.#up(heap.length - 1);
      return;
    }
    const worst = heap[0] as Scored<T>;
    if (!this.#better({ score, item }, worst)) return;
    heap[0] = { score, item };
    this.#down(0);
  }

  /** The kept entries, best first. */
  sorted(): Scored<T>[] {
    return [...this.#heap].sort((a, b) => (this.#better(a, b) ? -1 : this.#better(b, a) ? 1 : 0));
  }

  #better(a: Scored<T>, b: Scored<T>): boolean {
    return a.score > b.score || (a.score === b.score && this.#tieBreak(a.item, b.item) < 0);
  }

  #up(index: number): void {
    const heap = this.#heap;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#better(heap[parent] as Scored<T>, heap[i] as Scored<T>)) break;
      [heap[parent], heap[i]] = [heap[i] as Scored<T>, heap[parent] as Scored<T>];
      i = parent;
    }
  }

  #down(index: number): void {
    const heap = this.#heap;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && this.#better(heap[worst] as Scored<T>, heap[left] as Scored<T>))
        worst = left;
      if (right < heap.length && this.#better(heap[worst] as Scored<T>, heap[right] as Scored<T>))
        worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i] as Scored<T>, heap[worst] as Scored<T>];
      i = worst;
    }
  }
}
