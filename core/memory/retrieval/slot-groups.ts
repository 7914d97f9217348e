/** One group's slots, in order of addition (removed slots stay until a remap drops them). */
interface SlotList {
  slots: Int32Array;
  length: number;
}

/**
 * The named groups of an index's slots (a document's project, "permanent"): per group a growable
 * typed array of slots, so marking a group's documents in a query mask costs one array write per
 * member instead of one id lookup. Removed slots are skipped through the index's liveness mask
 * and dropped by {@link SlotGroups.remap} when the index compacts.
 *
 * @example
 * const groups = new SlotGroups();
 * groups.add(0, ["project:billing"]);
 * groups.mark(["project:billing"], alive, mask, 0, 1); // mask[0] = 1 when slot 0 is alive
 */
export class SlotGroups {
  readonly #lists = new Map<string, SlotList>();

  /** Adds a (new) slot to its groups. */
  add(slot: number, groups: readonly string[]): void {
    for (const group of new Set(groups)) {
      let list = this.#lists.get(group);
      if (list === undefined)
        this.#lists.set(group, (list = { slots: new Int32Array(4), length: 0 }));
      if (list.length === list.slots.length) {
        const grown = new Int32Array(list.length * 2);
        grown.set(list.slots);
        list.slots = grown;
      }
      list.slots[list.length] = slot;
      list.length += 1;
    }
  }

  /**
   * Sets `mask[slot] = to` for each live slot (`alive[slot] === 1`) of the named groups whose
   * mask value is `from`.
   */
  mark(
    groups: readonly string[],
    alive: Uint8Array,
    mask: Uint8Array,
    from: number,
    to: number,
  ): void {
    for (const group of groups) {
      const list = this.#lists.get(group);
      if (list === undefined) continue;
      const { slots, length } = list;
      for (let i = 0; i < length; i += 1) {
        const slot = slots[i] as number;
        if (alive[slot] === 1 && mask[slot] === from) mask[slot] = to;
      }
    }
  }

  /** Renumbers slots (`newSlot[old]`, -1 for removed ones), dropping removed ones; order kept. */
  remap(newSlot: Int32Array): void {
    for (const [group, list] of this.#lists) {
      let kept = 0;
      for (let i = 0; i < list.length; i += 1) {
        const to = newSlot[list.slots[i] as number] as number;
        if (to >= 0) list.slots[kept++] = to;
      }
      list.length = kept;
      if (kept === 0) this.#lists.delete(group);
    }
  }
}
