/** What {@link CreatedOrder} keeps: a creation instant, an id, and whether it was removed. */
export interface Ordered {
  readonly createdMs: number;
  readonly id: string;
  gone: boolean;
}

/** A place in the order: strictly after it, in the listing's direction, is what comes next. */
export interface OrderPosition {
  readonly createdMs: number;
  readonly id: string;
}

/**
 * Items kept in `(createdMs, id)` order for paged listings, so a page costs its own size rather
 * than a pass over every memory. New items are usually the newest and are appended; others (an
 * import with an old `created_at`, the unordered startup load) mark the array for one sort before
 * the next walk. Removal flags the item `gone`; the walk skips such items and they are dropped
 * once they are a quarter of the array.
 *
 * @example
 * const order = new CreatedOrder<Entry>();
 * order.add(entry);
 * for (const e of order.walk("newest")) …
 */
export class CreatedOrder<T extends Ordered> {
  #items: T[] = [];
  #sorted = true;
  #gone = 0;

  add(item: T): void {
    const last = this.#items[this.#items.length - 1];
    if (last !== undefined && compare(last, item) > 0) this.#sorted = false;
    this.#items.push(item);
  }

  /** Forgets an item (it must have been added and not removed since). */
  remove(item: T): void {
    item.gone = true;
    this.#gone += 1;
  }

  /**
   * The items not removed, oldest first (`"oldest"`) or newest first (`"newest"`), starting
   * strictly after `after` when given.
   */
  *walk(order: "newest" | "oldest", after?: OrderPosition): Generator<T> {
    this.#settle();
    const items = this.#items;
    if (order === "oldest") {
      for (let i = after === undefined ? 0 : firstAbove(items, after); i < items.length; i += 1) {
        const item = items[i] as T;
        if (!item.gone) yield item;
      }
      return;
    }
    const start = after === undefined ? items.length - 1 : firstAtOrAbove(items, after) - 1;
    for (let i = start; i >= 0; i -= 1) {
      const item = items[i] as T;
      if (!item.gone) yield item;
    }
  }

  #settle(): void {
    if (this.#gone > 0 && this.#gone * 4 >= this.#items.length) {
      this.#items = this.#items.filter((item) => !item.gone);
      this.#gone = 0;
    }
    if (!this.#sorted) {
      this.#items.sort(compare);
      this.#sorted = true;
    }
  }
}

function compare(a: OrderPosition, b: OrderPosition): number {
  return a.createdMs - b.createdMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Index of the first item ordered after `position` (binary search). */
function firstAbove(items: readonly OrderPosition[], position: OrderPosition): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compare(items[mid] as OrderPosition, position) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Index of the first item not ordered before `position` (binary search). */
function firstAtOrAbove(items: readonly OrderPosition[], position: OrderPosition): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compare(items[mid] as OrderPosition, position) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
