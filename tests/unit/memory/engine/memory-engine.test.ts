import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CosineRetrievalIndex } from "../../../../core/retrieval/cosine-retrieval-index.js";
import { MemoryEngine } from "../../../../core/memory/engine/memory-engine.js";
import {
  compileMemoryFilter,
  type MemoryFilter,
} from "../../../../core/memory/engine/memory-filter.js";
import { DEFAULT_MEMORY_SERVICE_OPTIONS } from "../../../../core/memory/index.js";
import { createHybridIndex } from "../../../../core/retrieval/index.js";
import { MEMORY_SCOPES, MEMORY_TYPES, type Memory } from "../../../../core/memory/model/types.js";

const T0 = Date.parse("2026-11-21T10:00:00.000Z");
const HOUR = 3_600_000;
const DIMS = 6;

interface Stored {
  readonly memory: Memory;
  readonly vector: number[];
}

// Coarse values, so equal vectors (exact ties, broken by id) are common.
const vectorArb = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: DIMS, maxLength: DIMS });
/** Differences below this are ties to within float32 rounding (the index keeps float32). */
const NEAR_TIE = 1e-6;

const memoryArb = (n: number) =>
  fc
    .record({
      type: fc.constantFrom(...MEMORY_TYPES),
      scope: fc.constantFrom(...MEMORY_SCOPES),
      project: fc.constantFrom("", "billing", "search"),
      tags: fc.subarray(["ops", "ui", "db"]),
      // Expiry relative to T0 in hours; -1..3 so some are expired at the query instants.
      expiresInHours: fc.integer({ min: -1, max: 3 }),
      vector: vectorArb,
      word: fc.constantFrom("deploy", "build", "test"),
    })
    .map(({ type, scope, project, tags, expiresInHours, vector, word }): Stored => {
      const iso = new Date(T0).toISOString();
      const expires =
        scope === "permanent" || scope === "project"
          ? null
          : new Date(T0 + expiresInHours * HOUR).toISOString();
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      return {
        memory: {
          id,
          content: `${word} note ${n}`,
          type,
          scope,
          tags,
          project,
          confidence: 1,
          created_at: iso,
          updated_at: iso,
          last_accessed: iso,
          access_count: 0,
          expires_at: expires,
        },
        vector: vector.every((x) => x === 0) ? [1, ...vector.slice(1)] : vector,
      };
    });

const storeArb = fc
  .integer({ min: 0, max: 40 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => memoryArb(i + 1))))
  .map((items) => items as Stored[]);

const filterArb: fc.Arbitrary<MemoryFilter> = fc.record(
  {
    project: fc.constantFrom("", "billing", "search"),
    types: fc.subarray([...MEMORY_TYPES], { minLength: 1 }),
    scopes: fc.subarray([...MEMORY_SCOPES], { minLength: 1 }),
    tags: fc.subarray(["ops", "ui", "db"], { maxLength: 1 }),
  },
  { requiredKeys: [] },
);

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b) || 1);
}

function isLiveAt(memory: Memory, nowMs: number): boolean {
  return memory.expires_at === null || nowMs < Date.parse(memory.expires_at);
}

/** The brute-force answer: every live memory passing the filter, by cosine, ties by id. */
function reference(
  stored: readonly Stored[],
  query: { vector: number[]; topK: number; filter: MemoryFilter; nowMs: number },
): { id: string; similarity: number }[] {
  const passes = compileMemoryFilter(query.filter);
  return stored
    .filter(({ memory }) => isLiveAt(memory, query.nowMs) && passes(memory))
    .map(({ memory, vector }) => ({ id: memory.id, similarity: cosine(vector, query.vector) }))
    .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
    .slice(0, query.topK);
}

function engineOf(stored: readonly Stored[]): MemoryEngine {
  const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
  for (const { memory, vector } of stored) engine.add(memory, `hash-${memory.content}`, vector);
  return engine;
}

describe("MemoryEngine against a brute-force reference", () => {
  // Heavy: 300 fast-check runs. Took 0.9 s and 4.6 s in two runs of the unit project on 2 shared
  // cores with two busy loops running.
  it("returns exactly the reference's top-K for random stores, filters, deletions and instants", () => {
    fc.assert(
      fc.property(
        storeArb,
        vectorArb,
        fc.integer({ min: 1, max: 15 }),
        filterArb,
        fc.integer({ min: -1, max: 4 }),
        fc.array(fc.nat(40), { maxLength: 10 }),
        fc.array(fc.tuple(fc.nat(40), fc.constantFrom("", "billing", "search"), fc.boolean()), {
          maxLength: 6,
        }),
        (stored, queryVector, topK, filter, atHours, deletions, moves) => {
          const vector = queryVector.every((x) => x === 0) ? [0, 1, 0, 0, 0, 0] : queryVector;
          const engine = engineOf(stored);
          const removed = new Set(deletions.map((n) => stored[n]?.memory.id));
          for (const id of removed) if (id !== undefined) engine.remove(id);
          const kept = stored.filter((s) => !removed.has(s.memory.id));
          // Updates that move memories between projects, into or out of the permanent scope.
          const live = kept.map((s) => ({ ...s }));
          for (const [n, project, permanent] of moves) {
            const entry = live[n % Math.max(1, live.length)];
            if (entry === undefined) continue;
            const scope = permanent
              ? "permanent"
              : entry.memory.scope === "permanent"
                ? "project"
                : entry.memory.scope;
            entry.memory = { ...entry.memory, project, scope };
            expect(engine.update(entry.memory)).toBe(true);
          }
          const startMs = T0 + atHours * HOUR;
          // Asked again later and earlier: the engine's cached liveness bounds must not leak.
          for (const nowMs of [startMs, startMs + 2 * HOUR, startMs]) {
            const query = { vector, topK, filter, nowMs };
            const got = engine.query({ ...query, text: "deploy" });
            const all = reference(live, { ...query, topK: live.length });
            const want = all.slice(0, topK);
            const exact = new Map(all.map((h) => [h.id, h.similarity]));
            expect(got).toHaveLength(want.length);
            got.forEach((hit, i) => {
              const wanted = want[i] as { id: string; similarity: number };
              // Only candidates of the reference (live, passing the filter), at the same rank up to
              // float32 rounding: a different id at a rank is a near-tie with the reference's.
              const similarity = exact.get(hit.memory.id);
              expect(similarity).toBeDefined();
              if (hit.memory.id !== wanted.id) {
                expect(Math.abs((similarity ?? 0) - wanted.similarity)).toBeLessThan(NEAR_TIE);
              }
              expect(hit.similarity).toBeCloseTo(similarity ?? NaN, 5);
              expect(hit.relevance).toBeCloseTo(Math.max(0, similarity ?? NaN), 5);
            });
          }
          const nowMs = startMs;
          // Stats count the same live memories, also when asked again later or earlier (cached).
          for (const at of [nowMs, nowMs, nowMs + HOUR, nowMs + 3 * HOUR, nowMs]) {
            const stats = engine.stats(at);
            const liveNow = live.filter((s) => isLiveAt(s.memory, at));
            expect(stats.total_memories).toBe(liveNow.length);
            for (const type of MEMORY_TYPES) {
              expect(stats.by_type[type]).toBe(
                liveNow.filter((s) => s.memory.type === type).length,
              );
            }
            for (const scope of MEMORY_SCOPES) {
              expect(stats.by_scope[scope]).toBe(
                liveNow.filter((s) => s.memory.scope === scope).length,
              );
            }
          }
          expect(engine.expired(nowMs).sort()).toEqual(
            live
              .filter((s) => !isLiveAt(s.memory, nowMs))
              .map((s) => s.memory.id)
              .sort(),
          );
        },
      ),
      { numRuns: 300 },
    );
  }, 30_000);
});

describe("MemoryEngine", () => {
  const base = (id: number, patch: Partial<Memory> = {}): Memory => ({
    id: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
    content: "Deploys run on Fridays",
    type: "fact",
    scope: "permanent",
    tags: [],
    project: "",
    confidence: 1,
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
    last_accessed: new Date(T0).toISOString(),
    access_count: 0,
    expires_at: null,
    ...patch,
  });

  it("finds the oldest live duplicate by hash, comparing the normalised content, type, scope and project", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    const key = {
      hash: "h",
      content: " Deploys  run on Fridays ",
      type: "fact",
      scope: "permanent",
      project: "",
    } as const;
    engine.add(base(2, { created_at: new Date(T0 + 1).toISOString() }), "h", [1, 0]);
    engine.add(base(1), "h", [1, 0]);
    engine.add(base(3, { content: "Other text, same hash (a collision)" }), "h", [1, 0]);
    engine.add(base(4, { type: "rule" }), "h", [1, 0]);
    expect(engine.findDuplicate(key, T0)?.id).toBe(base(1).id);
    engine.remove(base(1).id);
    expect(engine.findDuplicate(key, T0)?.id).toBe(base(2).id);
    expect(engine.findDuplicate({ ...key, project: "billing" }, T0)).toBeUndefined();
    expect(engine.findDuplicate({ ...key, hash: "other" }, T0)).toBeUndefined();
  });

  it("breaks exact ties by id, whatever the order of insertion", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    for (const n of [5, 2, 9, 1]) engine.add(base(n), `h${n}`, [3, 4]);
    const hits = engine.query({ text: "x", vector: [3, 4], topK: 3, filter: {}, nowMs: T0 });
    expect(hits.map((h) => h.memory.id)).toEqual([base(1).id, base(2).id, base(5).id]);
  });

  it("ignores an expired duplicate", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    engine.add(base(1, { scope: "ttl", expires_at: new Date(T0 + 1000).toISOString() }), "h", [1]);
    const key = {
      hash: "h",
      content: "Deploys run on Fridays",
      type: "fact",
      scope: "ttl",
      project: "",
    } as const;
    expect(engine.findDuplicate(key, T0)?.id).toBe(base(1).id);
    expect(engine.findDuplicate(key, T0 + 1000)).toBeUndefined();
  });

  it("counts accesses at once and extends a session memory's expiry", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), {
      ttlHours: 720,
      sessionIdleHours: 2,
    });
    const session = base(1, {
      scope: "session",
      expires_at: new Date(T0 + 2 * HOUR).toISOString(),
    });
    engine.add(session, "h", [1, 0]);
    expect(engine.recordAccess([session.id, session.id, "missing"], T0 + HOUR)).toEqual([
      session.id,
    ]);
    expect(engine.get(session.id, T0 + HOUR)).toMatchObject({
      access_count: 1,
      last_accessed: new Date(T0 + HOUR).toISOString(),
      expires_at: new Date(T0 + 3 * HOUR).toISOString(),
    });
    expect(engine.get(session.id, T0 + 2.5 * HOUR)).toBeDefined();
    expect(engine.get(session.id, T0 + 3 * HOUR)).toBeUndefined();
    expect(engine.recordAccess([session.id], T0 + 3 * HOUR)).toEqual([]);
  });

  it("lends no evidence from an expired neighbour, nor from one a filter leaves out", () => {
    const engine = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    const expiring = new Date(T0 + HOUR).toISOString();
    // Both ttl in one project: store neighbours. Orthogonal vectors: only words count.
    const strong = base(1, {
      content: "Deploys run on Fridays",
      scope: "ttl",
      expires_at: expiring,
    });
    const next = base(2, { content: "Fridays only", scope: "ttl", type: "rule" });
    engine.add(strong, "h1", [0, 1]);
    engine.add(next, "h2", [0, 1]);
    const lift = (hours: number, filter: MemoryFilter = {}) =>
      engine
        .query({
          text: "deploys fridays",
          vector: [1, 0],
          topK: 5,
          filter,
          nowMs: T0 + hours * HOUR,
        })
        .find((hit) => hit.memory.id === next.id)?.neighbour;
    expect(lift(0.5)).toBeGreaterThan(0);
    expect(lift(2)).toBeUndefined();
    expect(lift(0.5, { types: ["rule"] })).toBeUndefined();
  });

  for (const index of ["cosine", "hybrid"] as const) {
    it(`ranks a memory by the expiry an update or an access gave it (${index} index)`, () => {
      const engine = new MemoryEngine(
        index === "cosine" ? new CosineRetrievalIndex() : createHybridIndex(),
        { ttlHours: 720, sessionIdleHours: 2 },
      );
      const expiringAt = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
      const session = base(1, { scope: "session", expires_at: expiringAt(2) });
      engine.add(session, "h", [1, 0]);
      engine.add(base(2, { content: "Deploys wait on Mondays" }), "h2", [0.6, 0.8]);
      const ids = (hours: number) =>
        engine
          .query({ text: "deploys", vector: [1, 0], topK: 5, filter: {}, nowMs: T0 + hours * HOUR })
          .map((hit) => Number(hit.memory.id.slice(-1)));
      expect(ids(1)).toEqual([1, 2]);
      expect(ids(2)).toEqual([2]);
      // Later by an update (same groups): live again at 2 h, until 4 h.
      expect(engine.update({ ...session, expires_at: expiringAt(4) })).toBe(true);
      expect(ids(3)).toEqual([1, 2]);
      expect(ids(4)).toEqual([2]);
      // Earlier by an update: gone from 1 h.
      expect(engine.update({ ...session, expires_at: expiringAt(1) })).toBe(true);
      expect(ids(0.5)).toEqual([1, 2]);
      expect(ids(1)).toEqual([2]);
      // An access at 0.5 h extends it to 2.5 h (last access + 2 h idle).
      expect(engine.recordAccess([session.id], T0 + 0.5 * HOUR)).toEqual([session.id]);
      expect(ids(2.4)).toEqual([1, 2]);
      expect(ids(2.5)).toEqual([2]);
    });
  }

  it("replaces a memory's fields but keeps its content on update, and ignores unknown ids", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    engine.add(base(1), "h", [1, 0]);
    expect(engine.update({ ...base(1), content: "ignored", tags: ["ops"] })).toBe(true);
    expect(engine.get(base(1).id, T0)).toMatchObject({ content: base(1).content, tags: ["ops"] });
    expect(engine.update(base(9))).toBe(false);
    expect(engine.size).toBe(1);
  });

  it("hands out its records without a group first, then group by group, and loads them back", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    const added = [
      base(1, { scope: "project", project: "billing" }),
      base(2, { scope: "session", project: "" }),
      base(3, { scope: "project", project: "search" }),
      base(4),
      base(5, { scope: "project", project: "billing" }),
      base(6, { scope: "session", project: "" }),
    ];
    added.forEach((memory, i) => engine.add(memory, `hash-${i}`, [1, i]));
    const records = [...engine.records()];
    expect(records.map((r) => Number(r.id.slice(-2)))).toEqual([2, 6, 1, 5, 3, 4]);
    const copy = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    for (const record of records) copy.load(record);
    expect([...copy.records()]).toEqual(records);
  });

  it("gives back every field of a memory exactly as added and as loaded from its record", () => {
    const engine = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    const memory = base(7, {
      type: "procedure",
      scope: "session",
      tags: ["ops", "a,b", 'quote"d'],
      project: "billing",
      confidence: 0.37,
      updated_at: new Date(T0 + 1234).toISOString(),
      last_accessed: new Date(T0 + 5678).toISOString(),
      access_count: 3,
      expires_at: new Date(T0 + HOUR).toISOString(),
    });
    engine.add(memory, "hash-7", [1, 2, 3]);
    expect(engine.get(memory.id, T0)).toEqual(memory);
    expect(engine.peek(memory.id)).toEqual(memory);
    const copy = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    for (const record of engine.records()) copy.load(record);
    expect(copy.get(memory.id, T0)).toEqual(memory);
    expect([...copy.records()]).toEqual([...engine.records()]);
  });

  it("loads a stored record and refuses one that does not follow the layout", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
    expect(() =>
      engine.load({ id: "x", vector: [1], document: "d", metadata: { type: "fact" } }),
    ).toThrow(/memory record x/);
    expect(engine.size).toBe(0);
  });
});
