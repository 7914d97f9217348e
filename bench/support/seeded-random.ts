/**
 * A deterministic pseudo-random generator (mulberry32) for the benchmarks, so runs with the same
 * seed load the same data and their figures are comparable.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // a number in [0, 1), the same on every run
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
