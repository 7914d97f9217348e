/** A scored candidate: the index's slot, its id (for ties) and its score. */
export interface ScoredSlot {
  readonly slot: number;
  readonly id: string;
  readonly score: number;
}

/** True when `a` ranks before `b`: higher score first, then the smaller id. */
export function ranksBefore(a: ScoredSlot, b: ScoredSlot): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

/**
 * Keeps the `k` best of a stream of candidates in a bounded heap (O(n log k)), and hands them out
 * best first. Ties go to the smaller id, so equal inputs give equal answers whatever the order
 * the candidates arrive in.
 *
 * @example
 * const best = new TopK(2);
 * best.offer({ slot: 0, id: "b", score: 0.5 });
 * best.offer({ slot: 1, id: "a", score: 0.5 });
 * best.offer({ slot: 2, id: "c", score: 0.1 });
 * best.sorted().map((c) => c.id); // ["a", "b"]
 */
export class TopK {
  readonly #k: number;
  /** A min-heap by rank: the worst kept candidate at the root. */
  readonly #heap: ScoredSlot[] = [];

  constructor(k: number) {
    this.#k = Math.max(0, Math.floor(k));
  }

  /** Whether a candidate with this score could still enter (cheap pre-check before building it). */
  admits(score: number): boolean {
    const worst = this.#heap[0];
    return this.#heap.length < this.#k || (worst !== undefined && score >= worst.score);
  }

  /**
   * The lowest score that may still enter: `-Infinity` until `k` candidates are kept, then the
   * worst kept one's (equal scores enter when their id ranks first).
   */
  floor(): number {
    const worst = this.#heap[0];
    return this.#heap.length < this.#k || worst === undefined ? -Infinity : worst.score;
  }

  /** Keeps the candidate if it is among the `k` best so far; a NaN score never enters. */
  offer(candidate: ScoredSlot): void {
    if (Number.isNaN(candidate.score)) return;
    const heap = this.#heap;
    if (heap.length < this.#k) {
      heap.push(candidate);
      this.#siftUp(heap.length - 1);
    } else if (heap[0] !== undefined && ranksBefore(candidate, heap[0])) {
      heap[0] = candidate;
      this.#siftDown(0);
    }
  }

  /** The kept candidates, best first. */
  sorted(): ScoredSlot[] {
    return [...this.#heap].sort((a, b) => (ranksBefore(a, b) ? -1 : ranksBefore(b, a) ? 1 : 0));
  }

  #siftUp(start: number): void {
    const heap = this.#heap;
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const child = heap[i] as ScoredSlot;
      const above = heap[parent] as ScoredSlot;
      if (!ranksBefore(above, child)) break;
      heap[i] = above;
      heap[parent] = child;
      i = parent;
    }
  }

  #siftDown(start: number): void {
    const heap = this.#heap;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && ranksBefore(heap[worst] as ScoredSlot, heap[left] as ScoredSlot)) {
        worst = left;
      }
      if (
        right < heap.length &&
        ranksBefore(heap[worst] as ScoredSlot, heap[right] as ScoredSlot)
      ) {
        worst = right;
      }
      if (worst === i) return;
      const tmp = heap[i] as ScoredSlot;
      heap[i] = heap[worst] as ScoredSlot;
      heap[worst] = tmp;
      i = worst;
    }
  }
}
