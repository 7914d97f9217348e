import { MEMORY_SCOPES, MEMORY_TYPES } from "../model/types.js";
import type { Memory, MemoryScope, MemoryType } from "../model/types.js";

/** One value of a facet (a project, a tag) and how many memories carry it. */
export type ValueCount = readonly [value: string, count: number];

/**
 * Counts of a set of memories: the total, one count per type and per scope (zeros included), and
 * every project and every tag with its count, most frequent first (then by value), so a bounded
 * answer is a slice. A memory counts once under each of its tags; `""` is the project of the
 * memories without one.
 *
 * @example
 * const counts: MemoryCounts = {
 *   total: 2, byType: { rule: 2, fact: 0, episode: 0, procedure: 0, preference: 0 },
 *   byScope: { permanent: 2, project: 0, session: 0, ttl: 0 },
 *   byProject: [["billing", 2]], byTag: [["ops", 2], ["deploy", 1]],
 * };
 */
export interface MemoryCounts {
  readonly total: number;
  readonly byType: Readonly<Record<MemoryType, number>>;
  readonly byScope: Readonly<Record<MemoryScope, number>>;
  readonly byProject: readonly ValueCount[];
  readonly byTag: readonly ValueCount[];
}

/**
 * Builds {@link MemoryCounts} in one pass: {@link add} each memory, then {@link counts}. With
 * `facets: false` it counts only the total, types and scopes (`byProject` and `byTag` empty).
 *
 * @example
 * const tally = new CountTally();
 * for (const memory of memories) tally.add(memory);
 * tally.counts().byProject; // [["billing", 12], ["ops", 3]]
 */
export class CountTally {
  #total = 0;
  readonly #byType = Object.fromEntries(MEMORY_TYPES.map((t) => [t, 0])) as Record<
    MemoryType,
    number
  >;
  readonly #byScope = Object.fromEntries(MEMORY_SCOPES.map((s) => [s, 0])) as Record<
    MemoryScope,
    number
  >;
  readonly #byProject = new Map<string, number>();
  readonly #byTag = new Map<string, number>();
  readonly #facets: boolean;

  constructor(options: { readonly facets?: boolean } = {}) {
    this.#facets = options.facets ?? true;
  }

  add(memory: Pick<Memory, "type" | "scope" | "project" | "tags">): void {
    this.#total += 1;
    this.#byType[memory.type] += 1;
    this.#byScope[memory.scope] += 1;
    if (!this.#facets) return;
    this.#byProject.set(memory.project, (this.#byProject.get(memory.project) ?? 0) + 1);
    // Once under each tag, even when a tag was stored twice.
    const { tags } = memory;
    tags.forEach((tag, i) => {
      if (tags.indexOf(tag) === i) this.#byTag.set(tag, (this.#byTag.get(tag) ?? 0) + 1);
    });
  }

  counts(): MemoryCounts {
    return {
      total: this.#total,
      byType: { ...this.#byType },
      byScope: { ...this.#byScope },
      byProject: mostFrequentFirst(this.#byProject),
      byTag: mostFrequentFirst(this.#byTag),
    };
  }
}

function mostFrequentFirst(counts: ReadonlyMap<string, number>): ValueCount[] {
  return [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0));
}
