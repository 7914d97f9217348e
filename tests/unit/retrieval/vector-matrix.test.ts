import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VectorMatrix } from "../../../core/retrieval/vector-matrix.js";

/** Rows, and new numbers for them: distinct, dense from 0, some rows dropped (-1). */
const remapArb = fc
  .record({
    dimensions: fc.integer({ min: 1, max: 20 }),
    rows: fc.integer({ min: 1, max: 300 }),
    seed: fc.integer(),
    keepEvery: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ dimensions, rows, seed, keepEvery }) => {
    let state = seed >>> 0;
    const next = () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    const vectors = Array.from({ length: rows }, () =>
      Array.from({ length: dimensions }, () => Math.fround(next() * 2 - 1)),
    );
    // Keeping one row in 5 or 6 of a few hundred leaves under a quarter of the storage in use:
    // the remap then moves the rows into a new, smaller memory instead of in place.
    const kept = vectors.map((_, i) => i).filter((i) => i % keepEvery === 0);
    // A shuffle of the kept rows: new numbers with chains and cycles.
    for (let i = kept.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [kept[i], kept[j]] = [kept[j] as number, kept[i] as number];
    }
    const newRow = new Int32Array(rows).fill(-1);
    kept.forEach((from, to) => (newRow[from] = to));
    return { vectors, newRow, rowCount: kept.length };
  });

describe("VectorMatrix.remap", () => {
  // Heavy: 200 fast-check runs. Took 1.2 s and 2.5 s in two runs of the unit project on 2 shared
  // cores with two busy loops running.
  it("moves every kept row, with its codes, to its new number (in place and into new memory)", () => {
    fc.assert(
      fc.property(remapArb, ({ vectors, newRow, rowCount }) => {
        const matrix = new VectorMatrix();
        vectors.forEach((vector, row) => matrix.set(row, vector));
        const query = vectors[0] as number[];
        matrix.queryVector(query);
        const before = vectors.map((_, row) => matrix.dot(row));
        matrix.remap(newRow, rowCount);
        matrix.queryVector(query);
        const all = new Uint8Array(rowCount).fill(1);
        const scan = matrix.boundedScan(all, rowCount);
        let min = Infinity;
        let max = -Infinity;
        newRow.forEach((to, from) => {
          if (to < 0) return;
          expect(matrix.row(to)).toEqual(vectors[from]);
          const dot = matrix.dot(to);
          expect(dot).toBe(before[from]);
          expect(Math.abs((matrix.similarities[to] as number) - dot)).toBeLessThanOrEqual(
            scan.slack,
          );
          min = Math.min(min, dot);
          max = Math.max(max, dot);
        });
        expect([scan.min, scan.max]).toEqual([min, max]);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it("reserves no image whose floats are not whole rows", () => {
    // 5 dimensions are stored in rows of 8 floats.
    expect(VectorMatrix.reserveImage(5, 12)).toBeUndefined();
    expect(VectorMatrix.reserveImage(5, 16)?.scales.length).toBe(2);
  });

  it("takes over the arrays of reserveImage in place, and copies any others", () => {
    const matrix = new VectorMatrix();
    const vectors = [
      [0.6, 0.8, 0, 0, 0],
      [0, 0.6, 0.8, 0, 0],
      [-1, 0, 0, 0, 0],
    ];
    vectors.forEach((vector, row) => matrix.set(row, vector));
    const image = matrix.image(3);
    const reserved = VectorMatrix.reserveImage(5, image.rows.length);
    if (reserved === undefined) throw new Error("three whole rows were refused");
    reserved.rows.set(image.rows);
    reserved.codes.set(image.codes);
    reserved.scales.set(image.scales);
    const inPlace = VectorMatrix.fromImage({ ...image, ...reserved });
    expect(inPlace.image(3).rows.buffer).toBe(reserved.rows.buffer);
    const copied = VectorMatrix.fromImage(structuredClone(image));
    matrix.queryVector([1, 0, 0, 0, 0]);
    const dots = vectors.map((_, row) => matrix.dot(row));
    for (const restored of [inPlace, copied]) {
      restored.queryVector([1, 0, 0, 0, 0]);
      expect(vectors.map((_, row) => restored.dot(row))).toEqual(dots);
      expect(restored.image(3)).toEqual(image);
    }
  });
});
