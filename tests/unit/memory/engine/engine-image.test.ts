import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryEngine } from "../../../../core/memory/engine/memory-engine.js";
import {
  engineImagePlacer,
  type EngineImage,
} from "../../../../core/memory/engine/engine-image.js";
import { DEFAULT_MEMORY_SERVICE_OPTIONS } from "../../../../core/memory/index.js";
import { createHybridIndex } from "../../../../core/retrieval/index.js";
import { MEMORY_SCOPES, MEMORY_TYPES, type Memory } from "../../../../core/memory/model/types.js";

const T0 = Date.parse("2026-11-21T10:00:00.000Z");
const HOUR = 3_600_000;
const DIMS = 6;
const WORDS = ["deploy", "build", "test", "getUserName", "Straße", "naïve", "東京", "v1.2"];

const stepArb = fc.record({
  kind: fc.constantFrom("add", "add", "add", "remove", "update", "access"),
  n: fc.integer({ min: 0, max: 60 }),
  type: fc.constantFrom(...MEMORY_TYPES),
  scope: fc.constantFrom(...MEMORY_SCOPES),
  project: fc.constantFrom("", "billing", "search"),
  tags: fc.subarray(["ops", "ui", "db"]),
  createdHours: fc.integer({ min: -5, max: 5 }),
  words: fc.subarray(WORDS, { minLength: 1 }),
  vector: fc.array(fc.integer({ min: -4, max: 4 }), { minLength: DIMS, maxLength: DIMS }),
});
type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function memoryOf(step: Step): Memory {
  const created = new Date(T0 + step.createdHours * HOUR).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(step.n).padStart(12, "0")}`,
    content: `${step.words.join(" ")} note ${step.n}`,
    type: step.type,
    scope: step.scope,
    tags: step.tags,
    project: step.project,
    confidence: 0.5 + step.n / 200,
    created_at: created,
    updated_at: created,
    last_accessed: created,
    access_count: step.n % 3,
    expires_at: step.scope === "ttl" ? new Date(T0 + step.n * HOUR).toISOString() : null,
  };
}

/** The step's vector at unit length (coarse components: exact ties are common). */
function unit(vector: readonly number[]): number[] {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

const newEngine = () => new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);

function apply(engine: MemoryEngine, steps: readonly Step[]): void {
  for (const step of steps) {
    const memory = memoryOf(step);
    if (step.kind === "add") engine.add(memory, `hash-${step.words[0]}`, unit(step.vector));
    else if (step.kind === "remove") engine.remove(memory.id);
    else if (step.kind === "update") engine.update({ ...memory, content: "ignored" });
    else engine.recordAccess([memory.id], T0 + HOUR);
  }
}

/** Everything a read can see of an engine. */
function answers(engine: MemoryEngine, queries: readonly Step[]) {
  const nowMs = T0 + 2 * HOUR;
  return {
    size: engine.size,
    newest: [...engine.liveInOrder(nowMs, "newest")],
    stats: engine.stats(nowMs),
    counts: engine.counts(nowMs),
    expired: engine.expired(nowMs).sort(),
    records: [...engine.records()].sort((a, b) => a.id.localeCompare(b.id)),
    duplicates: queries.map((q) =>
      engine.findDuplicate({ ...memoryOf(q), hash: `hash-${q.words[0]}` }, nowMs),
    ),
    hits: queries.flatMap((q) =>
      [{}, { project: q.project }, { types: [q.type] }].map((filter) =>
        engine.query({ text: q.words.join(" "), vector: unit(q.vector), topK: 7, filter, nowMs }),
      ),
    ),
  };
}

/** A deep copy through structured clone: what survives a trip through a file. */
const copied = (image: EngineImage): EngineImage => structuredClone(image);

/**
 * A deep copy as a snapshot reader makes it with `engineImagePlacer`: each typed array (in the
 * tree's order) copied into the array the placer gives for it, when it gives one.
 */
function placedCopy(image: EngineImage): EngineImage {
  const place = engineImagePlacer(DIMS);
  let placed = 0;
  const copy = (value: unknown, path: string[]): unknown => {
    if (ArrayBuffer.isView(value)) {
      const typed = value as unknown as Float32Array;
      const target = place(path, typed.constructor.name, typed.length) as Float32Array | undefined;
      if (target === undefined) return typed.slice();
      placed += 1;
      target.set(typed);
      return target;
    }
    if (Array.isArray(value)) return value.map((item, i) => copy(item, [...path, String(i)]));
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, copy(child, [...path, key])]),
    );
  };
  const result = copy(image, []) as EngineImage;
  // The vectors' three arrays and the arena's four are placed.
  expect(placed).toBe(7);
  return result;
}

describe("engine image", () => {
  it("restores an engine from arrays read into the places engineImagePlacer gives, exactly", () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 150 }),
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { maxLength: 60 }),
        (steps, queries, later) => {
          const engine = newEngine();
          apply(engine, steps);
          const restored = newEngine();
          expect(restored.restore(placedCopy(engine.image() as EngineImage))).toBe(true);
          expect(answers(restored, queries)).toEqual(answers(engine, queries));
          // The spare room taken over is used by the later changes, still alike.
          apply(engine, later);
          apply(restored, later);
          expect(answers(restored, queries)).toEqual(answers(engine, queries));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("restores an engine that holds and answers exactly as the one it was taken from", () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 150 }),
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { maxLength: 30 }),
        (steps, queries, later) => {
          const engine = newEngine();
          apply(engine, steps);
          const image = engine.image();
          expect(image).toBeDefined();
          const restored = newEngine();
          expect(restored.restore(copied(image as EngineImage))).toBe(true);
          expect(answers(restored, queries)).toEqual(answers(engine, queries));
          // And it keeps answering alike as both change further.
          apply(engine, later);
          apply(restored, later);
          expect(answers(restored, queries)).toEqual(answers(engine, queries));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("restores an engine that, changed before its first read, answers exactly as the original", () => {
    // The duplicate lookup by hash is built at the first read after a restore: writes before it
    // must reach it too.
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 150 }),
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 60 }),
        (steps, queries, later) => {
          const engine = newEngine();
          apply(engine, steps);
          const restored = newEngine();
          expect(restored.restore(copied(engine.image() as EngineImage))).toBe(true);
          apply(engine, later);
          apply(restored, later);
          expect(answers(restored, queries)).toEqual(answers(engine, queries));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is refused by an index whose tokenizer differs, which then holds nothing", () => {
    const engine = newEngine();
    engine.add(memoryOf(fc.sample(stepArb, 1)[0] as Step), "h", [1, 0, 0, 0, 0, 0]);
    const image = engine.image() as EngineImage;
    const other = new MemoryEngine(
      createHybridIndex({ terms: (text) => text.split(" ") }),
      DEFAULT_MEMORY_SERVICE_OPTIONS,
    );
    expect(other.restore(image)).toBe(false);
    expect(other.size).toBe(0);
  });

  it("throws on an image whose parts disagree", () => {
    const engine = newEngine();
    engine.add(memoryOf(fc.sample(stepArb, 1)[0] as Step), "h", [1, 0, 0, 0, 0, 0]);
    const image = engine.image() as EngineImage;
    expect(() => newEngine().restore({ ...image, hashes: [] })).toThrow(/disagree/);
  });

  it("is refused when saved before the index kept a store order, so the load goes to the store", () => {
    const engine = newEngine();
    engine.add(memoryOf(fc.sample(stepArb, 1)[0] as Step), "h", [1, 0, 0, 0, 0, 0]);
    const image = engine.image() as EngineImage;
    const { order: _, ...older } = image.index;
    const restored = newEngine();
    expect(restored.restore({ ...image, index: older })).toBe(false);
    expect(restored.size).toBe(0);
  });

  it("keeps every memory's store neighbours through its records, loaded in the order given (the snapshot file)", () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 150 }),
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        (steps, queries) => {
          const engine = newEngine();
          apply(engine, steps);
          const loaded = newEngine();
          for (const record of engine.records()) loaded.load(record);
          loaded.settle();
          expect(answers(loaded, queries).hits).toEqual(answers(engine, queries).hits);
        },
      ),
      { numRuns: 60 },
    );
  });
});
