import type { StoreOrderImage } from "./index-image.js";

/**
 * Where a document sits in its writer's order: documents of the same `group` are ordered by
 * `time`, then `tie` (both ascending). The memory engine gives a memory's tenant-local group
 * (project and scope), its `created_at` in epoch ms and its insertion number.
 *
 * @example
 * const key: StoreOrderKey = { group: "billing\u0000permanent", time: 1_764_300_000_000, tie: 7 };
 */
export interface StoreOrderKey {
  readonly group: string;
  readonly time: number;
  /** A whole number in [0, 2^31): breaks ties of `time` (the insertion number). */
  readonly tie: number;
}

/** No slot (the end of a group's chain). */
const NONE = -1;
/**
 * Steps an add walks back from its group's end to find its place; further back, it is appended
 * and the group is re-sorted once before the next read (a load in another order, e.g. a
 * store's id order, then costs one sort instead of a walk per memory).
 */
const WALK_LIMIT = 32;

/**
 * Long because: one class over typed arrays (group, key, links) that every method reads and
 * writes together; splitting it would expose the layout.
 *
 * The index's slots chained group by group in store order (see {@link StoreOrderKey}), so a
 * candidate's store neighbours (the documents written just before and after it in its own group)
 * are two array reads away. Per slot: its group's number, its key (`time` float64, `tie` int32)
 * and the previous and next slot of its group (24 bytes a slot, no object). Adding in order
 * appends in O(1); a key a little older than its group's last one walks back to its place, and
 * one much older marks the group for one sort at the next {@link StoreOrder.settle} (which every
 * read needs first). A document re-added with its key unchanged takes its old place
 * ({@link StoreOrder.replace}). Removing unlinks at once, so a removed document is never
 * anyone's neighbour.
 *
 * @example
 * const order = new StoreOrder();
 * order.add(0, { group: "g", time: 1, tie: 0 });
 * order.add(1, { group: "g", time: 1, tie: 1 });
 * order.next(0); // 1
 */
export class StoreOrder {
  /** Per group name, its number (from 1); 0 is "no group". */
  readonly #numbers = new Map<string, number>();
  /** Per group number, its last slot ({@link NONE}: empty). */
  #tails = new Int32Array(8).fill(NONE);
  #group = new Int32Array(64);
  #time = new Float64Array(64);
  #tie = new Int32Array(64);
  #prev = new Int32Array(64).fill(NONE);
  #next = new Int32Array(64).fill(NONE);
  /** Numbers of the groups whose chain is out of key order until {@link settle}. */
  readonly #unsorted = new Set<number>();

  /** The slot written just before `slot` in its group, or -1. */
  prev(slot: number): number {
    return this.#group[slot] === 0 ? NONE : (this.#prev[slot] as number);
  }

  /** The slot written just after `slot` in its group, or -1. */
  next(slot: number): number {
    return this.#group[slot] === 0 ? NONE : (this.#next[slot] as number);
  }

  /**
   * The most of `scoreOf(j) / d` over the slots j written d = 1 or 2 before or after `slot` in
   * its group whose `time` is within `window` of its own (0 when it has none): what its store
   * neighbours lend it.
   */
  bestNeighbour(slot: number, scoreOf: (slot: number) => number, window = Infinity): number {
    if (this.#group[slot] === 0) return 0;
    const time = this.#time[slot] as number;
    const close = (other: number) => Math.abs((this.#time[other] as number) - time) <= window;
    let best = 0;
    const before = this.#prev[slot] as number;
    if (before !== NONE && close(before)) {
      best = Math.max(best, scoreOf(before));
      const far = this.#prev[before] as number;
      if (far !== NONE && close(far)) best = Math.max(best, scoreOf(far) / 2);
    }
    const after = this.#next[slot] as number;
    if (after !== NONE && close(after)) {
      best = Math.max(best, scoreOf(after));
      const far = this.#next[after] as number;
      if (far !== NONE && close(far)) best = Math.max(best, scoreOf(far) / 2);
    }
    return best;
  }

  /**
   * The slots written up to `distance` before and after `slot` in its group whose `time` is
   * within `window` of its own, in store order (earliest first), without `slot` itself; none for
   * a slot without a group. Reads need {@link settle} first.
   */
  around(slot: number, distance: number, window = Infinity): number[] {
    if (this.#group[slot] === 0) return [];
    const time = this.#time[slot] as number;
    const walk = (links: Int32Array): number[] => {
      const found: number[] = [];
      let other = links[slot] as number;
      while (other !== NONE && found.length < distance) {
        if (!(Math.abs((this.#time[other] as number) - time) <= window)) break;
        found.push(other);
        other = links[other] as number;
      }
      return found;
    };
    return [...walk(this.#prev).reverse(), ...walk(this.#next)];
  }

  /** Chains a new slot into its group at its key's place; a slot without a key has none. */
  add(slot: number, key: StoreOrderKey | undefined): void {
    this.#reserve(slot + 1);
    this.#prev[slot] = NONE;
    this.#next[slot] = NONE;
    if (key === undefined) {
      this.#group[slot] = 0;
      return;
    }
    let number = this.#numbers.get(key.group);
    if (number === undefined) {
      number = this.#numbers.size + 1;
      this.#numbers.set(key.group, number);
      if (number >= this.#tails.length) {
        const grown = new Int32Array(this.#tails.length * 2).fill(NONE);
        grown.set(this.#tails);
        this.#tails = grown;
      }
    }
    this.#group[slot] = number;
    this.#time[slot] = key.time;
    this.#tie[slot] = key.tie;
    let before = this.#tails[number] as number;
    let after = NONE;
    for (let steps = 0; before !== NONE && this.#after(before, key.time, key.tie); steps += 1) {
      if (steps === WALK_LIMIT || this.#unsorted.has(number)) {
        this.#unsorted.add(number);
        before = this.#tails[number] as number;
        after = NONE;
        break;
      }
      after = before;
      before = this.#prev[before] as number;
    }
    this.#prev[slot] = before;
    this.#next[slot] = after;
    if (before !== NONE) this.#next[before] = slot;
    if (after !== NONE) this.#prev[after] = slot;
    else this.#tails[number] = slot;
  }

  /**
   * Moves a chained slot's place and key to the new slot `to` (a document re-added with the same
   * key): O(1), where an add would walk back to it.
   */
  replace(from: number, to: number): void {
    this.#reserve(to + 1);
    const number = this.#group[from] as number;
    this.#group[to] = number;
    this.#time[to] = this.#time[from] as number;
    this.#tie[to] = this.#tie[from] as number;
    const before = this.#prev[from] as number;
    const after = this.#next[from] as number;
    this.#prev[to] = before;
    this.#next[to] = after;
    if (before !== NONE) this.#next[before] = to;
    if (after !== NONE) this.#prev[after] = to;
    else if (number !== 0) this.#tails[number] = to;
    this.#group[from] = 0;
  }

  /** Whether `slot` is chained with this key (its group, time and tie). */
  holds(slot: number, key: StoreOrderKey): boolean {
    const number = this.#group[slot] as number;
    return (
      number !== 0 &&
      this.#numbers.get(key.group) === number &&
      this.#time[slot] === key.time &&
      this.#tie[slot] === key.tie
    );
  }

  /** Sorts the chains that adds left out of order (see {@link WALK_LIMIT}); reads need it first. */
  settle(): void {
    for (const number of this.#unsorted) {
      const slots: number[] = [];
      for (
        let slot = this.#tails[number] as number;
        slot !== NONE;
        slot = this.#prev[slot] as number
      ) {
        slots.push(slot);
      }
      slots.sort((a, b) => this.#compare(a, b));
      let before = NONE;
      for (const slot of slots) {
        this.#prev[slot] = before;
        if (before !== NONE) this.#next[before] = slot;
        before = slot;
      }
      if (before !== NONE) this.#next[before] = NONE;
      this.#tails[number] = before;
    }
    this.#unsorted.clear();
  }

  /** Unlinks a slot: its neighbours become each other's. */
  remove(slot: number): void {
    const number = this.#group[slot] as number;
    if (number === 0) return;
    const before = this.#prev[slot] as number;
    const after = this.#next[slot] as number;
    if (before !== NONE) this.#next[before] = after;
    if (after !== NONE) this.#prev[after] = before;
    else this.#tails[number] = before;
    this.#group[slot] = 0;
  }

  /** Renumbers slots (`newSlot[old]`, -1 for removed ones, which are unlinked already). */
  remap(newSlot: Int32Array, slotCount: number): void {
    const size = Math.max(64, slotCount);
    const group = new Int32Array(size);
    const time = new Float64Array(size);
    const tie = new Int32Array(size);
    const prev = new Int32Array(size).fill(NONE);
    const next = new Int32Array(size).fill(NONE);
    const moved = (slot: number) => (slot === NONE ? NONE : (newSlot[slot] as number));
    for (let old = 0; old < newSlot.length; old += 1) {
      const to = newSlot[old] as number;
      if (to < 0) continue;
      group[to] = this.#group[old] as number;
      time[to] = this.#time[old] as number;
      tie[to] = this.#tie[old] as number;
      prev[to] = moved(this.#prev[old] as number);
      next[to] = moved(this.#next[old] as number);
    }
    this.#tails = this.#tails.map(moved);
    this.#group = group;
    this.#time = time;
    this.#tie = tie;
    this.#prev = prev;
    this.#next = next;
  }

  /** Its state for `slotCount` slots (every one live), as views of its arrays. */
  image(slotCount: number): StoreOrderImage {
    this.settle();
    return {
      names: [...this.#numbers.keys()],
      group: this.#group.subarray(0, slotCount),
      time: this.#time.subarray(0, slotCount),
      tie: this.#tie.subarray(0, slotCount),
      prev: this.#prev.subarray(0, slotCount),
      next: this.#next.subarray(0, slotCount),
    };
  }

  /** An order holding an image (its arrays taken over). */
  static fromImage(image: StoreOrderImage): StoreOrder {
    const order = new StoreOrder();
    image.names.forEach((name, i) => order.#numbers.set(name, i + 1));
    order.#tails = new Int32Array(Math.max(8, image.names.length + 1)).fill(NONE);
    const n = image.group.length;
    if (n > 0) {
      order.#group = image.group;
      order.#time = image.time;
      order.#tie = image.tie;
      order.#prev = image.prev;
      order.#next = image.next;
    }
    for (let slot = 0; slot < n; slot += 1) {
      const number = image.group[slot] as number;
      if (number > 0 && image.next[slot] === NONE) order.#tails[number] = slot;
    }
    return order;
  }

  #compare(a: number, b: number): number {
    return (
      (this.#time[a] as number) - (this.#time[b] as number) ||
      (this.#tie[a] as number) - (this.#tie[b] as number)
    );
  }

  /** Whether `slot`'s key is after (time, tie). */
  #after(slot: number, time: number, tie: number): boolean {
    const t = this.#time[slot] as number;
    return t > time || (t === time && (this.#tie[slot] as number) > tie);
  }

  #reserve(size: number): void {
    if (size <= this.#group.length) return;
    const length = Math.max(size, this.#group.length * 2);
    const grow = <A extends Int32Array | Float64Array>(from: A, to: A, fill = 0): A => {
      if (fill !== 0) to.fill(fill);
      to.set(from);
      return to;
    };
    this.#group = grow(this.#group, new Int32Array(length));
    this.#time = grow(this.#time, new Float64Array(length));
    this.#tie = grow(this.#tie, new Int32Array(length));
    this.#prev = grow(this.#prev, new Int32Array(length), NONE);
    this.#next = grow(this.#next, new Int32Array(length), NONE);
  }
}
