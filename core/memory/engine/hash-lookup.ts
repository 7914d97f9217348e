/**
 * The `MemoryEngine`'s held memories by content hash (duplicate lookup). After a restore the map
 * is left unbuilt and made at the first lookup: filling it hashes every memory's 64-character
 * content hash, ~1 µs a memory, which a restart to ready need not pay (the change feed's
 * catch-up adds and removes without looking anything up).
 */
import type { HeldMemory } from "./held-memory.js";

/**
 * Held memories by `hash`: the one with it, or all of them (a hash is shared rarely).
 *
 * @example
 * const byHash = new HashLookup(entries);
 * byHash.add(held);
 * byHash.find(held.hash); // [held]
 * byHash.defer(); // after a restore: built again from `entries` at the next find
 */
export class HashLookup {
  readonly #entries: ReadonlyMap<string, HeldMemory>;
  /** `undefined` until the first lookup after {@link defer}. */
  #map: Map<string, HeldMemory | HeldMemory[]> | undefined = new Map();

  /** `entries`: every held memory, what a deferred map is built from. */
  constructor(entries: ReadonlyMap<string, HeldMemory>) {
    this.#entries = entries;
  }

  /** Forgets the map: the next {@link find} builds it from the entries (which hold it all). */
  defer(): void {
    this.#map = undefined;
  }

  /** Holds `held` under its hash. */
  add(held: HeldMemory): void {
    if (this.#map !== undefined) addTo(this.#map, held);
  }

  /** Forgets `held`. */
  remove(held: HeldMemory): void {
    const map = this.#map;
    if (map === undefined) return;
    const known = map.get(held.hash);
    if (known === held) map.delete(held.hash);
    else if (Array.isArray(known)) {
      const rest = known.filter((other) => other !== held);
      if (rest.length === 0) map.delete(held.hash);
      else map.set(held.hash, rest.length === 1 ? (rest[0] as HeldMemory) : rest);
    }
  }

  /** The held memories with `hash` (none: empty). */
  find(hash: string): readonly HeldMemory[] {
    let map = this.#map;
    if (map === undefined) {
      map = new Map();
      for (const held of this.#entries.values()) addTo(map, held);
      this.#map = map;
    }
    const known = map.get(hash);
    return known === undefined ? [] : Array.isArray(known) ? known : [known];
  }
}

function addTo(map: Map<string, HeldMemory | HeldMemory[]>, held: HeldMemory): void {
  const known = map.get(held.hash);
  if (known === undefined) map.set(held.hash, held);
  else if (Array.isArray(known)) known.push(held);
  else map.set(held.hash, [known, held]);
}
