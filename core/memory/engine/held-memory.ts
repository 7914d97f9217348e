/**
 * How the `MemoryEngine` keeps one memory: one object of shared strings and a row of numbers, the
 * `Memory` answer built from it when a read returns it. Instants are epoch ms (a `Memory`'s four
 * ISO strings cost ~190 bytes a memory and are rebuilt exactly from the ms, which is what the
 * store keeps too); type and scope are the model's constants, project and tags are shared with
 * every memory that has the same (see {@link Interner}). The decoded `Memory` alone measured
 * 338 bytes a memory at 100,000 (docs/performance.md, "The engine alone").
 */
import { NEVER_EXPIRES_MS } from "../model/expiry.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "../model/types.js";
import type { Memory, MemoryScope, MemoryType } from "../model/types.js";
import type { HeldColumns } from "./held-columns.js";

/**
 * One shared instance per distinct project name and tag list: a store has few projects and
 * few tag combinations compared to memories, so each costs its strings once.
 *
 * @example
 * const interner = new Interner();
 * interner.tags(["a", "b"]) === interner.tags(["a", "b"]); // true
 */
export class Interner {
  readonly #projects = new Map<string, string>();
  readonly #tagLists = new Map<string, readonly string[]>();
  readonly #types = new Map<string, MemoryType>(MEMORY_TYPES.map((t) => [t, t]));
  readonly #scopes = new Map<string, MemoryScope>(MEMORY_SCOPES.map((s) => [s, s]));

  /** The shared copy of a project name. */
  project(name: string): string {
    const known = this.#projects.get(name);
    if (known !== undefined) return known;
    this.#projects.set(name, name);
    return name;
  }

  /** The shared copy of a tag list (same tags, same order). */
  tags(tags: readonly string[]): readonly string[] {
    const key = tags.length === 0 ? "" : JSON.stringify(tags);
    const known = this.#tagLists.get(key);
    if (known !== undefined) return known;
    const shared = Object.freeze(tags.map((tag) => this.project(tag)));
    this.#tagLists.set(key, shared);
    return shared;
  }

  /** The model's constant for a type (the same string, one copy). */
  type(type: MemoryType): MemoryType {
    return this.#types.get(type) ?? type;
  }

  /** The model's constant for a scope (the same string, one copy). */
  scope(scope: MemoryScope): MemoryScope {
    return this.#scopes.get(scope) ?? scope;
  }
}

/**
 * A memory as the engine holds it (see the file comment). Everything but `id`, `content`,
 * `hash` and the creation instant can change in place ({@link HeldMemory.assign}); a new
 * creation instant needs a new object (the listing order is keyed by it). Its changeable numbers
 * live in a row of the engine's {@link HeldColumns}, given back by {@link HeldMemory.release}
 * when it leaves the engine.
 *
 * @example
 * const held = HeldMemory.of(memory, hash, interner, columns);
 * held.toMemory(); // deep-equal to memory
 */
export class HeldMemory {
  readonly id: string;
  readonly content: string;
  readonly hash: string;
  /** `created_at` as epoch ms (the listing order). */
  readonly createdMs: number;
  type: MemoryType = "fact";
  scope: MemoryScope = "permanent";
  project = "";
  tags: readonly string[] = [];
  /**
   * Its insertion number in the engine: with `createdMs`, its place in the store order its
   * neighbours are read from (`index-groups.ts`, `storeOrderOf`). Kept when it is updated.
   */
  tie = 0;
  /** Set when it leaves the engine (the listing order skips it). */
  gone = false;
  readonly #columns: HeldColumns;
  readonly #row: number;

  private constructor(
    id: string,
    content: string,
    hash: string,
    createdMs: number,
    columns: HeldColumns,
    row: number,
  ) {
    this.id = id;
    this.content = content;
    this.hash = hash;
    this.createdMs = createdMs;
    this.#columns = columns;
    this.#row = row;
  }

  /** Holds `memory` (its content as given, the other fields through `interner`) in a new row. */
  static of(memory: Memory, hash: string, interner: Interner, columns: HeldColumns): HeldMemory {
    const created = Date.parse(memory.created_at);
    const held = new HeldMemory(memory.id, memory.content, hash, created, columns, columns.take());
    held.assign(memory, interner);
    return held;
  }

  /**
   * A memory whose numbers are already in `row` of `columns`, its other fields defaulted, for a
   * restore that sets them one by one (`engine-image.ts`).
   */
  static restored(
    id: string,
    content: string,
    hash: string,
    createdMs: number,
    columns: HeldColumns,
    row: number,
  ): HeldMemory {
    return new HeldMemory(id, content, hash, createdMs, columns, row);
  }

  /** Its row in the engine's {@link HeldColumns}. */
  get row(): number {
    return this.#row;
  }

  get confidence(): number {
    return this.#columns.confidence[this.#row] as number;
  }

  get updatedMs(): number {
    return this.#columns.updated[this.#row] as number;
  }

  get lastAccessedMs(): number {
    return this.#columns.lastAccessed[this.#row] as number;
  }

  get accessCount(): number {
    return this.#columns.accessCount[this.#row] as number;
  }

  /** When it expires, epoch ms ({@link NEVER_EXPIRES_MS}: never). */
  get expiresAtMs(): number {
    return this.#columns.expires[this.#row] as number;
  }

  /** Takes every field of `memory` but its id, content and creation instant. */
  assign(memory: Memory, interner: Interner): void {
    const columns = this.#columns;
    const row = this.#row;
    this.type = interner.type(memory.type);
    this.scope = interner.scope(memory.scope);
    this.project = interner.project(memory.project);
    this.tags = interner.tags(memory.tags);
    columns.confidence[row] = memory.confidence;
    columns.updated[row] = Date.parse(memory.updated_at);
    columns.lastAccessed[row] = Date.parse(memory.last_accessed);
    columns.accessCount[row] = memory.access_count;
    columns.expires[row] =
      memory.expires_at === null ? NEVER_EXPIRES_MS : Date.parse(memory.expires_at);
  }

  /** Gives its row back: call once, when it leaves the engine; nothing may read its numbers after. */
  release(): void {
    this.#columns.release(this.#row);
  }

  /** The memory as the API returns it (a new object each call). */
  toMemory(): Memory {
    const expiresAtMs = this.expiresAtMs;
    return {
      id: this.id,
      content: this.content,
      type: this.type,
      scope: this.scope,
      tags: this.tags,
      project: this.project,
      confidence: this.confidence,
      created_at: new Date(this.createdMs).toISOString(),
      updated_at: new Date(this.updatedMs).toISOString(),
      last_accessed: new Date(this.lastAccessedMs).toISOString(),
      access_count: this.accessCount,
      expires_at: expiresAtMs >= NEVER_EXPIRES_MS ? null : new Date(expiresAtMs).toISOString(),
    };
  }
}
