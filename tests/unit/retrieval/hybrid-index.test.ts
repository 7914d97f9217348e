import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createBm25Index,
  createHybridIndex,
  type IndexedDocument,
  type RetrievalQuery,
} from "../../../core/retrieval/index.js";
import { referenceRanking, type ReferenceSettings } from "./reference-ranking.js";

const DEFAULTS: ReferenceSettings = {
  fusion: "convex",
  vectorWeight: 0.2,
  k1: 1.2,
  b: 0.75,
  delta: 1,
  rrfK: 60,
  rrfDepth: 100,
  neighbourLift: 0.3,
};

const WORDS = [
  "deploy",
  "deploys",
  "friday",
  "the",
  "coffee",
  "kitchen",
  "getUserName",
  "user",
  "max_retries",
  "2022",
  "postgres",
  "backup",
];
const DIMENSIONS = 4;
const GROUPS = ["project:a", "project:b", "permanent"];

const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(" "));
/** Small integers keep exact ties frequent, which is what the tie rule needs to be tested on. */
const vectorArb = fc.array(fc.integer({ min: -3, max: 3 }), {
  minLength: DIMENSIONS,
  maxLength: DIMENSIONS,
});
const idArb = fc.integer({ min: 0, max: 14 }).map((i) => `id-${String(i).padStart(2, "0")}`);
const operationArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      id: idArb,
      text: textArb,
      vector: vectorArb,
      groups: fc.subarray(GROUPS),
      // A store order of few groups and instants, so neighbours and out-of-order adds are common;
      // the tie is the id's number, so a re-add with the same group and instant keeps its place.
      order: fc.option(
        fc.record({ group: fc.constantFrom("x", "y"), time: fc.constantFrom(0, 1, 2) }),
        { nil: undefined },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), id: idArb }) },
);
const queryArb = fc.record({
  text: textArb,
  vector: vectorArb,
  topK: fc.integer({ min: 1, max: 12 }),
  acceptedIds: fc.option(fc.uniqueArray(idArb, { maxLength: 15 })),
  groups: fc.subarray(GROUPS),
});
const settingsArb = fc.record({
  fusion: fc.constantFrom("convex" as const, "rrf" as const),
  vectorWeight: fc.constantFrom(0, 0.3, 0.5, 1),
  rrfDepth: fc.constantFrom(3, 100),
  delta: fc.constantFrom(0, 0.5),
  neighbourLift: fc.constantFrom(0, 0.3, 1),
  neighbourWindow: fc.constantFrom(Infinity, 0, 1),
});

const tieOf = (id: string) => Number(id.slice(3));

function toQuery(q: {
  text: string;
  vector: number[];
  topK: number;
  acceptedIds: string[] | null;
}): RetrievalQuery {
  const { acceptedIds } = q;
  return {
    text: q.text,
    vector: q.vector,
    topK: q.topK,
    ...(acceptedIds === null ? {} : { accept: (id: string) => acceptedIds.includes(id) }),
  };
}

describe("createHybridIndex", () => {
  // Heavy: 300 fast-check runs. Took 2.0 s and 2.3 s in two runs of the unit project on 2 shared
  // cores with two busy loops running.
  it("ranks exactly like a brute-force reference on random stores, after adds, replacements and removals", () => {
    fc.assert(
      fc.property(
        settingsArb,
        fc.array(operationArb, { maxLength: 40 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        (partial, operations, queries) => {
          const settings = { ...DEFAULTS, ...partial };
          const index = createHybridIndex(settings);
          const live = new Map<string, IndexedDocument>();
          for (const op of operations) {
            if (op.kind === "add") {
              const { order, ...rest } = op;
              const doc =
                order === undefined ? rest : { ...rest, order: { ...order, tie: tieOf(op.id) } };
              index.add(doc);
              live.set(op.id, doc);
            } else {
              expect(index.remove(op.id)).toBe(live.delete(op.id));
            }
          }
          expect(index.size).toBe(live.size);
          for (const q of queries) {
            const query = toQuery(q);
            const want = referenceRanking(live, query, settings);
            expect(index.query(query)).toEqual(want);
            // Restricted to groups: the same as accepting only the groups' members.
            const inGroups = (id: string) =>
              (live.get(id)?.groups ?? []).some((g) => q.groups.includes(g));
            expect(index.query({ ...query, groups: q.groups })).toEqual(
              referenceRanking(
                live,
                { ...query, accept: (id) => inGroups(id) && (query.accept?.(id) ?? true) },
                settings,
              ),
            );
            if (q.acceptedIds === null) continue;
            // The same set as candidate groups (unknown ids ignored), or as candidates and accept.
            const half = Math.floor(q.acceptedIds.length / 2);
            const groups = [q.acceptedIds.slice(0, half), new Set(q.acceptedIds.slice(half))];
            const { accept: _, ...plain } = query;
            expect(index.query({ ...plain, candidates: [...groups, ["unknown"]] })).toEqual(want);
            expect(index.query({ ...query, candidates: [[...live.keys()]] })).toEqual(want);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  // Heavy: 150 fast-check runs of many long documents. Took 0.7 s and 0.5 s in two runs of the unit
  // project on 2 shared cores with two busy loops running.
  it("stays exact when top-k pruning skips most documents (many documents, small topK, long texts)", () => {
    // Many documents sharing few words and vectors: near-ties at the pruning floor, counts above
    // the precomputed weights' table and documents longer than it (1,100 terms).
    const docArb = fc.record({
      words: fc.array(fc.constantFrom(...WORDS.slice(0, 6)), { minLength: 1, maxLength: 12 }),
      repeat: fc.constantFrom(1, 1, 1, 3, 7),
      long: fc.integer({ min: 0, max: 9 }).map((i) => i === 0),
      vector: vectorArb,
      // Instants out of order in a group of up to 120: adds walk back, or re-sort the group.
      time: fc.integer({ min: 0, max: 50 }),
      group: fc.constantFrom("x", "x", "y"),
    });
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 120 }),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0.3, 0.5, 0.7, 0.999, 1),
        (docs, queries, vectorWeight) => {
          const settings = { ...DEFAULTS, vectorWeight };
          const index = createHybridIndex(settings);
          const live = new Map<string, IndexedDocument>();
          docs.forEach((d, i) => {
            const words = d.words.flatMap((w) => Array<string>(d.repeat).fill(w));
            const text = (d.long ? [...words, ...Array<string>(1100).fill("coffee")] : words).join(
              " ",
            );
            const doc = {
              id: `d${String(i).padStart(3, "0")}`,
              text,
              vector: d.vector,
              order: { group: d.group, time: d.time, tie: i },
            };
            index.add(doc);
            live.set(doc.id, doc);
          });
          for (const q of queries) {
            const query = { ...toQuery(q), topK: 1 + (q.topK % 5) };
            expect(index.query(query)).toEqual(referenceRanking(live, query, settings));
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  // Heavy: 150 fast-check runs. Took 0.5 s and 0.4 s in two runs of the unit project on 2 shared
  // cores with two busy loops running.
  it("stays exact when vectors differ by less than their int8 codes can tell", () => {
    // Near-copies of a few base vectors (offsets far below one int8 step): the approximate scan
    // cannot order them, so every candidate near the floor must be scored exactly.
    const baseArb = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
      minLength: 24,
      maxLength: 24,
    });
    fc.assert(
      fc.property(
        fc.array(baseArb, { minLength: 1, maxLength: 3 }),
        fc.array(
          fc.record({
            base: fc.nat(),
            nudge: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 24, maxLength: 24 }),
            words: fc.array(fc.constantFrom(...WORDS.slice(0, 4)), { maxLength: 4 }),
          }),
          { minLength: 1, maxLength: 80 },
        ),
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(0.5, 0.9, 1),
        (bases, docs, queryBase, topK, vectorWeight) => {
          const settings = { ...DEFAULTS, vectorWeight };
          const index = createHybridIndex(settings);
          const live = new Map<string, IndexedDocument>();
          const near = (base: number, nudge: readonly number[]) =>
            (bases[base % bases.length] as number[]).map((x, j) => x + (nudge[j] ?? 0) * 1e-4);
          docs.forEach((d, i) => {
            const doc = {
              id: `d${String(i).padStart(3, "0")}`,
              text: d.words.join(" "),
              vector: near(d.base, d.nudge),
            };
            index.add(doc);
            live.set(doc.id, doc);
          });
          const query = {
            text: "deploy friday",
            vector: near(queryBase, docs[0]?.nudge ?? []),
            topK,
          };
          expect(index.query(query)).toEqual(referenceRanking(live, query, settings));
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  // Heavy: 3,000 adds and 2,650 removals. Took 0.5 s and 0.2 s in two runs of the unit project on 2
  // shared cores with two busy loops running.
  it("stays exact after thousands of removals compact its storage", () => {
    const index = createHybridIndex();
    const live = new Map<string, IndexedDocument>();
    for (let i = 0; i < 3000; i += 1) {
      const doc = {
        id: `m${i % 1700}`,
        text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} note ${i % 50}`,
        vector: [Math.sin(i), Math.cos(i), (i % 5) - 2, 1],
        groups: [GROUPS[i % 3] as string],
      };
      index.add(doc);
      live.set(doc.id, doc);
      if (i % 3 === 0) {
        const gone = `m${(i * 13) % 1700}`;
        expect(index.remove(gone)).toBe(live.delete(gone));
      }
    }
    for (let i = 0; i < 1650; i += 1) {
      expect(index.remove(`m${i}`)).toBe(live.delete(`m${i}`));
    }
    expect(index.size).toBe(live.size);
    const query = { text: "deploy note 7 getUserName", vector: [0.5, -0.5, 1, 0], topK: 20 };
    expect(index.query(query)).toEqual(referenceRanking(live, query, DEFAULTS));
    expect(index.query(query).length).toBeGreaterThan(0);
    const inB = (id: string) => live.get(id)?.groups?.includes("project:b") === true;
    const grouped = index.query({ ...query, groups: ["project:b"] });
    expect(grouped).toEqual(referenceRanking(live, { ...query, accept: inB }, DEFAULTS));
    expect(grouped.length).toBeGreaterThan(0);
  }, 30_000);

  // Heavy: 6,000 adds, 7,300 removals and 12 brute-force rankings. It timed out at the 5 s default
  // on a fresh clone (6.3 s); in two runs of the unit project on 2 shared cores with two busy loops
  // running it took 6.8 s (a timeout, before this one) and 15.3 s.
  it("stays exact while it renumbers its slots in group order as it grows and shrinks", () => {
    // Past 1,024 slots added since the last compaction, slots are renumbered group by group;
    // after mass removals, storage shrinks into a new memory. Neither may change an answer.
    const index = createHybridIndex();
    const live = new Map<string, IndexedDocument>();
    const groupsOf = (i: number): string[] | undefined =>
      i % 5 === 4
        ? undefined
        : i % 7 === 0
          ? ["permanent", "project:a"]
          : [GROUPS[i % 3] as string];
    const check = () => {
      const query = { text: "deploy note 3 postgres", vector: [0.3, -0.7, 1, 0.2], topK: 15 };
      expect(index.query(query)).toEqual(referenceRanking(live, query, DEFAULTS));
      for (const group of ["project:a", "permanent"]) {
        const inGroup = (id: string) => live.get(id)?.groups?.includes(group) === true;
        const grouped = index.query({ ...query, groups: [group] });
        expect(grouped).toEqual(referenceRanking(live, { ...query, accept: inGroup }, DEFAULTS));
        expect(grouped.length).toBeGreaterThan(0);
      }
    };
    for (let i = 0; i < 6000; i += 1) {
      const groups = groupsOf(i);
      const doc = {
        id: `m${i}`,
        text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 5) % WORDS.length]} note ${i % 40}`,
        vector: [Math.sin(i), Math.cos(i * 3), (i % 7) - 3, 1],
        ...(groups === undefined ? {} : { groups }),
        // Store neighbours across compactions and renumbering, in a few order groups.
        order: { group: `o${i % 3}`, time: Math.floor(i / 10), tie: i },
      };
      index.add(doc);
      live.set(doc.id, doc);
      if (i % 4 === 1) {
        const gone = `m${(i * 11) % (i + 1)}`;
        expect(index.remove(gone)).toBe(live.delete(gone));
      }
      if (i === 1030 || i === 2500 || i === 5999) check();
    }
    for (let i = 0; i < 5800; i += 1) {
      expect(index.remove(`m${i}`)).toBe(live.delete(`m${i}`));
    }
    expect(index.size).toBe(live.size);
    check();
  }, 60_000);

  it("finds a document by its exact content first, with a high calibrated relevance", () => {
    const index = createHybridIndex();
    index.add({ id: "a", text: "Deploys run on Fridays after the standup", vector: [1, 0] });
    index.add({ id: "b", text: "Coffee is in the kitchen", vector: [0, 1] });
    index.add({ id: "c", text: "The standup is at ten", vector: [0.7, 0.7] });
    const [first] = index.query({ text: "deploys run on fridays", vector: [1, 0], topK: 3 });
    expect(first?.id).toBe("a");
    expect(first?.similarity).toBe(1);
    expect(first?.relevance).toBeGreaterThan(0.5);
  });

  it("does not rescale per query: an unrelated document in a small store scores near 0 (issue 22)", () => {
    const index = createHybridIndex();
    index.add({
      id: "deploy",
      text: "Deploys run on Fridays after the standup",
      vector: [1, 0, 0],
    });
    index.add({ id: "coffee", text: "Coffee is in the kitchen", vector: [0, 1, 0] });
    index.add({ id: "backup", text: "Postgres backups run nightly", vector: [0, 0, 1] });
    const hits = index.query({ text: "where is the coffee?", vector: [0, 1, 0], topK: 3 });
    expect(hits[0]?.id).toBe("coffee");
    expect(hits.filter((h) => h.id !== "coffee").every((h) => h.relevance < 0.1)).toBe(true);
    // A query nothing answers has no hit near the top of the scale either.
    const none = index.query({ text: "kubernetes rollout", vector: [0.6, 0.6, 0.5], topK: 3 });
    expect(none.every((h) => h.relevance < 0.3)).toBe(true);
  });

  it("gives the same relevance to the same evidence whatever else the store holds (issue 22)", () => {
    const small = createHybridIndex();
    const large = createHybridIndex();
    const target = { id: "t", text: "rotate the signing key every ninety days", vector: [1, 0] };
    small.add(target);
    small.add({ id: "o", text: "lunch is at noon", vector: [0, 1] });
    large.add(target);
    for (let i = 0; i < 200; i += 1) {
      large.add({
        id: `o${i}`,
        text: `lunch is at noon ${i % 2 === 0 ? "today" : "sharp"}`,
        vector: [0, 1],
      });
    }
    const query = { text: "signing key rotation", vector: [1, 0], topK: 1 };
    const [a] = small.query(query);
    const [b] = large.query(query);
    expect(a?.id).toBe("t");
    expect(b?.id).toBe("t");
    // Not equal (idf and the mean cosine move with the store) but of the same meaning.
    expect(Math.abs((a?.relevance ?? 0) - (b?.relevance ?? 0))).toBeLessThan(0.15);
  });

  it("ranks only the documents the accept filter lets through", () => {
    const index = createHybridIndex();
    for (const id of ["p1-a", "p1-b", "p2-a"]) {
      index.add({ id, text: `release checklist ${id}`, vector: [1, 0] });
    }
    const hits = index.query({
      text: "release checklist",
      vector: [1, 0],
      topK: 10,
      accept: (id) => id.startsWith("p1"),
    });
    expect(hits.map((h) => h.id)).toEqual(["p1-a", "p1-b"]);
  });

  it("breaks ties by id, whatever the insertion order", () => {
    const ids = ["d", "a", "c", "b"];
    for (const order of [ids, [...ids].reverse()]) {
      const index = createHybridIndex();
      for (const id of order) index.add({ id, text: "same words here", vector: [0, 1] });
      const hits = index.query({ text: "same words", vector: [0, 1], topK: 3 });
      expect(hits.map((h) => h.id)).toEqual(["a", "b", "c"]);
      expect(new Set(hits.map((h) => h.relevance)).size).toBe(1);
    }
  });

  it("replaces a document added again under the same id", () => {
    const index = createHybridIndex({ vectorWeight: 0 });
    index.add({ id: "x", text: "postgres backups nightly", vector: [1, 0] });
    index.add({ id: "x", text: "frontend colours", vector: [0, 1] });
    expect(index.size).toBe(1);
    expect(index.query({ text: "postgres", vector: [1, 0], topK: 5 })).toEqual([]);
    const hits = index.query({ text: "colours", vector: [1, 0], topK: 5 });
    expect(hits).toMatchObject([{ id: "x", similarity: 0, semantic: 0 }]);
    expect(hits[0]?.relevance).toBeGreaterThan(0);
  });

  it("forgets removed documents and reports whether the id was indexed", () => {
    const index = createHybridIndex();
    index.add({ id: "x", text: "postgres backups", vector: [1, 0] });
    expect(index.remove("x")).toBe(true);
    expect(index.remove("x")).toBe(false);
    expect(index.size).toBe(0);
    expect(index.query({ text: "postgres backups", vector: [1, 0], topK: 5 })).toEqual([]);
  });

  it("finds paraphrases through the vector side that BM25 alone cannot", () => {
    const docs = [
      { id: "a", text: "Deploys run on Fridays", vector: [1, 0, 0] },
      { id: "b", text: "Coffee is in the kitchen", vector: [0, 1, 0] },
    ];
    const hybrid = createHybridIndex();
    const bm25 = createBm25Index();
    for (const d of docs) {
      hybrid.add(d);
      bm25.add(d);
    }
    const query = { text: "when do we ship releases?", vector: [0.9, 0.1, 0], topK: 2 };
    expect(bm25.query(query)).toEqual([]);
    expect(hybrid.query(query)[0]?.id).toBe("a");
  });

  it("leaves a query's most common terms out when its postings pass maxQueryPostings", () => {
    const docs: IndexedDocument[] = [
      ...Array.from({ length: 6 }, (_, i) => ({
        id: `c${i}`,
        text: `coffee kitchen note ${i}`,
        vector: [1, i / 6],
      })),
      { id: "r", text: "postgres backup coffee", vector: [0, 1] },
    ];
    // "coffee" has 7 postings, "kitchen" 6, "postgres" and "backup" 1 each.
    const make = (maxQueryPostings?: number) => {
      const index = createHybridIndex(maxQueryPostings === undefined ? {} : { maxQueryPostings });
      for (const d of docs) index.add(d);
      return index;
    };
    const ask = (index: ReturnType<typeof make>, text: string) =>
      index.query({ text, vector: [1, 1], topK: 7 });
    const everything = "coffee kitchen postgres backup";
    // Within the budget (15 postings): every term counts, as without one.
    expect(ask(make(15), everything)).toEqual(ask(make(), everything));
    // 8 postings: the rare terms and "kitchen" fit (1 + 1 + 6), "coffee" (7 more) does not.
    expect(ask(make(8), everything)).toEqual(ask(make(), "kitchen postgres backup"));
    // 1 posting: the rarest term alone (one of the two of one posting, the other would pass it).
    expect(ask(make(1), everything)).toEqual(ask(make(), "postgres"));
    expect(ask(make(1), "coffee")).toEqual(ask(make(), "coffee"));
    expect(() => createHybridIndex({ maxQueryPostings: 0 })).toThrow(/maxQueryPostings/);
  });

  it("rejects vectors of another dimension and out-of-range options, naming them", () => {
    const index = createHybridIndex();
    index.add({ id: "x", text: "a", vector: [1, 0] });
    expect(() => index.add({ id: "y", text: "b", vector: [1, 0, 0] })).toThrow(
      /3 dimensions, expected 2/,
    );
    expect(() => index.query({ text: "a", vector: [1], topK: 1 })).toThrow(/query vector of 1/);
    expect(() => createHybridIndex({ vectorWeight: 1.5 })).toThrow(/vectorWeight/);
    expect(() => createHybridIndex({ b: -1 })).toThrow(/\bb must be/);
  });

  it("answers nothing for a topK below 1 or an empty index", () => {
    const index = createHybridIndex();
    expect(index.query({ text: "x", vector: [1], topK: 5 })).toEqual([]);
    index.add({ id: "x", text: "x", vector: [1] });
    expect(index.query({ text: "x", vector: [1], topK: 0 })).toEqual([]);
  });
});
