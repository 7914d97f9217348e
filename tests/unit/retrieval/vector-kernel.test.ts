import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createHybridIndex } from "../../../core/retrieval/index.js";
import { VECTOR_KERNEL_WASM } from "../../../core/retrieval/vector-kernel-wasm.js";
import {
  compileVectorKernel,
  renderVectorKernelModule,
} from "../../../scripts/vector-kernel-source.js";
import { laneDot } from "./reference-ranking.js";

/** A deterministic stream of floats in [-1, 1). */
function floats(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 31 - 1;
  };
}

describe("the vector kernel", () => {
  it("is the compiled form of vector-kernel.wat (run scripts/build-vector-kernel.ts after editing it)", async () => {
    const wat = readFileSync(
      new URL("../../../core/retrieval/vector-kernel.wat", import.meta.url),
      "utf8",
    );
    const bytes = await compileVectorKernel(wat);
    expect(Buffer.from(VECTOR_KERNEL_WASM).equals(Buffer.from(bytes))).toBe(true);
    const committed = readFileSync(
      new URL("../../../core/retrieval/vector-kernel-wasm.ts", import.meta.url),
      "utf8",
    );
    expect(committed).toBe(renderVectorKernelModule(bytes));
  });

  for (const dimensions of [1, 7, 100, 1_536]) {
    // Heavy: growth and compaction at up to 1,536 dimensions. Took 1.1 s and 1.8 s in two runs of
    // the unit project on 2 shared cores with two busy loops running.
    it(`gives every similarity in the documented float32 lane order (${dimensions} dimensions, through growth and compaction)`, () => {
      const next = floats(dimensions);
      const vector = () => Array.from({ length: dimensions }, next);
      const index = createHybridIndex({ vectorWeight: 1 });
      const live = new Map<string, number[]>();
      const add = (i: number) => {
        const v = vector();
        index.add({ id: `m${i}`, text: "note", vector: v });
        live.set(`m${i}`, v);
      };
      // The matrix grows past its first capacity several times; removing 1,600 of 2,300 makes
      // the index compact (removed slots outnumber live ones, and there are over 1,024); then it
      // grows again from the compacted size.
      for (let i = 0; i < 2_300; i += 1) add(i);
      for (let i = 0; i < 1_600; i += 1) {
        expect(index.remove(`m${i}`)).toBe(true);
        live.delete(`m${i}`);
      }
      for (let i = 2_300; i < 2_600; i += 1) add(i);
      const query = vector();
      const q = Float32Array.from(query);
      const hits = index.query({ text: "note", vector: query, topK: live.size });
      // Vectors alone, calibrated: memories no more similar than chance carry no evidence and
      // are dropped; every one returned must carry the kernel's exact similarity.
      expect(hits.length).toBeGreaterThan(live.size / 4);
      expect(hits.length).toBeLessThanOrEqual(live.size);
      for (const hit of hits) {
        const stored = live.get(hit.id);
        expect(stored).toBeDefined();
        expect(hit.similarity).toBe(laneDot(Float32Array.from(stored ?? []), q));
      }
    }, 60_000);
  }
});
