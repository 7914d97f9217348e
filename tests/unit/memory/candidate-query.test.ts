import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_UNFILTERED_PAGE,
  PROJECT_OVERFETCH_FACTOR,
  queryLiveCandidates,
  recordInProject,
  unfilteredPageSize,
} from "../../../core/memory/candidate-query.js";
import { candidateFilter, projectFilter } from "../../../core/memory/memory-filters.js";
import type {
  Metadata,
  VectorMatch,
  VectorQuery,
  VectorRecord,
} from "../../../core/ports/index.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";

const NOW = Date.parse("2026-11-21T10:00:00.000Z");
const FOREVER = 8_640_000_000_000_000;

/** Records the `topK` and filter of every query. */
class CountingStore extends InMemoryVectorStore {
  queries: { topK: number; filter: unknown }[] = [];

  override async query(query: VectorQuery): Promise<VectorMatch[]> {
    this.queries.push({ topK: query.topK, filter: query.filter });
    return super.query(query);
  }
}

/** A store holding `records` (vectors of length 3). */
async function storeWith(records: readonly VectorRecord[]): Promise<CountingStore> {
  const store = new CountingStore();
  await store.bind({ embedderId: "test", dimensions: 3 });
  await store.upsert(records);
  return store;
}

function memory(id: string, vector: number[], metadata: Metadata): VectorRecord {
  return { id, vector, document: id, metadata: { expires_at_ms: FOREVER, ...metadata } };
}

/** `n` live memories of `project` with similarities to [1, 0, 0] spread over (0, 1]. */
function projectMemories(prefix: string, n: number, project: string): VectorRecord[] {
  return Array.from({ length: n }, (_, i) =>
    memory(`${prefix}${String(i).padStart(4, "0")}`, [1, (i + 1) / n, 0], {
      project,
      scope: "project",
    }),
  );
}

const QUERY = [1, 0, 0];

describe("the unfiltered page size", () => {
  it("is the over-fetch factor times topK, and at least the expiry margin", () => {
    expect(unfilteredPageSize(10)).toBe(10 * PROJECT_OVERFETCH_FACTOR);
    expect(unfilteredPageSize(1)).toBeGreaterThanOrEqual(1 + 8);
  });

  it("is undefined when the page would exceed the cap", () => {
    const largest = Math.floor(MAX_UNFILTERED_PAGE / PROJECT_OVERFETCH_FACTOR);
    expect(unfilteredPageSize(largest)).toBeLessThanOrEqual(MAX_UNFILTERED_PAGE);
    expect(unfilteredPageSize(largest + 1)).toBeUndefined();
  });
});

describe("the in-process project clause", () => {
  it("admits the project's records and permanent ones only, by strict equality", () => {
    expect(recordInProject({ project: "billing", scope: "project" }, "billing")).toBe(true);
    expect(recordInProject({ project: "", scope: "permanent" }, "billing")).toBe(true);
    expect(recordInProject({ project: "search", scope: "session" }, "billing")).toBe(false);
    expect(recordInProject({ scope: "project" }, "billing")).toBe(false);
    expect(recordInProject({ project: 7, scope: "project" }, "7")).toBe(false);
    expect(recordInProject({ project: "search", scope: "ttl" }, "")).toBe(true);
  });
});

describe("candidate queries with a project", () => {
  it("make one query without any filter when the page holds enough of the project", async () => {
    const store = await storeWith([
      ...projectMemories("a", 30, "billing"),
      ...projectMemories("b", 30, "search"),
    ]);
    const hits = await queryLiveCandidates(store, {
      vector: QUERY,
      topK: 5,
      project: "billing",
      nowMs: NOW,
    });
    expect(store.queries).toEqual([{ topK: 5 * PROJECT_OVERFETCH_FACTOR, filter: undefined }]);
    expect(hits.map((h) => h.id)).toEqual(["a0000", "a0001", "a0002", "a0003", "a0004"]);
  });

  it("keep a short page's matches without a second query, however few", async () => {
    const store = await storeWith([
      ...projectMemories("a", 2, "billing"),
      ...projectMemories("b", 10, "search"),
    ]);
    const hits = await queryLiveCandidates(store, {
      vector: QUERY,
      topK: 5,
      project: "billing",
      nowMs: NOW,
    });
    expect(hits.map((h) => h.id)).toEqual(["a0000", "a0001"]);
    expect(store.queries).toHaveLength(1);
  });

  it("fall back to the project-filtered query when the project is rare in a full page", async () => {
    // 1 of 400 memories is in the project and ranks last: no unfiltered page can reach it.
    const store = await storeWith([
      memory("rare", [0, 1, 0], { project: "billing", scope: "project" }),
      ...projectMemories("b", 399, "search"),
    ]);
    const hits = await queryLiveCandidates(store, {
      vector: QUERY,
      topK: 3,
      project: "billing",
      nowMs: NOW,
    });
    expect(hits.map((h) => h.id)).toEqual(["rare"]);
    expect(store.queries).toEqual([
      { topK: unfilteredPageSize(3), filter: undefined },
      { topK: 11, filter: projectFilter("billing") },
    ]);
  });

  it("fall back to the expiry predicate when expired project memories fill both pages", async () => {
    const expired = projectMemories("a", 40, "billing").map((r) =>
      memory(r.id, [...r.vector], { ...r.metadata, expires_at_ms: NOW }),
    );
    const store = await storeWith([
      ...expired,
      memory("live", [0, 1, 0], { project: "billing", scope: "project" }),
    ]);
    const hits = await queryLiveCandidates(store, {
      vector: QUERY,
      topK: 4,
      project: "billing",
      nowMs: NOW,
    });
    expect(hits.map((h) => h.id)).toEqual(["live"]);
    expect(store.queries).toEqual([
      { topK: unfilteredPageSize(4), filter: undefined },
      { topK: 12, filter: projectFilter("billing") },
      { topK: 4, filter: candidateFilter(NOW, "billing") },
    ]);
  });

  it("query with the project filter directly when topK is too large for an unfiltered page", async () => {
    const topK = Math.floor(MAX_UNFILTERED_PAGE / PROJECT_OVERFETCH_FACTOR) + 1;
    const store = await storeWith(projectMemories("a", 3, "billing"));
    const hits = await queryLiveCandidates(store, {
      vector: QUERY,
      topK,
      project: "billing",
      nowMs: NOW,
    });
    expect(hits).toHaveLength(3);
    expect(store.queries).toEqual([
      { topK: topK + Math.ceil(topK / 4), filter: projectFilter("billing") },
    ]);
  });
});

const projects = ["", "billing", "search", "ops"] as const;
/** Weighted: most records are in "search", so "billing" and "ops" pages often need the fallback. */
const recordArb = fc.record({
  // Few distinct small components, so similarity ties are common and their order is tested too.
  vector: fc.tuple(
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: 0, max: 2 }),
  ),
  project: fc.oneof(
    { arbitrary: fc.constant("search"), weight: 12 },
    { arbitrary: fc.constantFrom("", "billing", "ops", 7, undefined), weight: 3 },
  ),
  scope: fc.oneof(
    { arbitrary: fc.constantFrom("project", "session", "ttl"), weight: 9 },
    { arbitrary: fc.constant("permanent"), weight: 1 },
  ),
  expiresAt: fc.constantFrom(NOW - 1, NOW, NOW + 1, FOREVER),
});

describe("candidate queries compared with the filtered query", () => {
  it("return exactly the filtered query's hits in its order, with or without the fallback", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { maxLength: 200, size: "max" }),
        fc.tuple(
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: 1, max: 2 }),
        ),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...projects),
        async (records, vector, topK, project) => {
          const store = await storeWith(
            records.map((r, i) =>
              memory(
                `m${String(i).padStart(3, "0")}`,
                r.vector.map((x) => x || 0.001),
                {
                  scope: r.scope,
                  expires_at_ms: r.expiresAt,
                  ...(r.project === undefined ? {} : { project: r.project }),
                },
              ),
            ),
          );
          const expected = await store.query({
            vector,
            topK,
            filter: candidateFilter(NOW, project),
          });
          const actual = await queryLiveCandidates(store, { vector, topK, project, nowMs: NOW });
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("return the filtered query's hits from the single unfiltered query on a large store", async () => {
    // 20 projects, 20% permanent: the bench's shape, where the unfiltered page is enough.
    const records = Array.from({ length: 2000 }, (_, i) =>
      memory(
        `m${String(i).padStart(4, "0")}`,
        [Math.cos(i * 0.37), Math.sin(i * 0.37), (i % 7) / 7],
        {
          project: i % 5 === 0 ? "" : `p${i % 20}`,
          scope: i % 5 === 0 ? "permanent" : "project",
        },
      ),
    );
    const store = await storeWith(records);
    for (const project of ["p1", "p7", "p13"]) {
      const vector = [1, 0.5, 0.2];
      const expected = await store.query({
        vector,
        topK: 20,
        filter: candidateFilter(NOW, project),
      });
      store.queries = [];
      const actual = await queryLiveCandidates(store, { vector, topK: 20, project, nowMs: NOW });
      expect(store.queries).toEqual([{ topK: unfilteredPageSize(20), filter: undefined }]);
      expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
      expect(actual).toHaveLength(20);
    }
  });
});
