/**
 * The V8 heap flags memsvc sets on itself (see docs/performance-memory.md, "Memory (RSS)").
 *
 * Measured, the service retains little (about 13 MB of live heap with 10,000 memories stored;
 * nothing grows per memory), but V8 sizes its heap for throughput: the young generation grows to
 * 2 × 16 MB under request load and never shrinks while requests keep coming, and until the first
 * full collections the old generation may grow to several times its live size. Together that is
 * 60-100 MB of RSS of garbage. These flags keep the young generation at its initial size and let
 * the old generation grow to twice its live size, for about 10-25 % more CPU on the query load.
 *
 * They are set with `v8.setFlagsFromString` from the process itself (the `memsvc` bin and
 * `npm start` pass no Node options), so only flags V8 reads when it grows the heap work here:
 * `--max-semi-space-size` would be too late. An operator's own flag on the same setting wins.
 */
export const MEMSVC_HEAP_FLAGS = [
  "--semi-space-growth-factor=1",
  "--heap-growing-percent=100",
] as const;

/** Each flag, and the settings that override it when the operator passes any of them. */
const OVERRIDDEN_BY: Readonly<Record<(typeof MEMSVC_HEAP_FLAGS)[number], readonly string[]>> = {
  "--semi-space-growth-factor=1": [
    "semi-space-growth-factor",
    "max-semi-space-size",
    "min-semi-space-size",
  ],
  "--heap-growing-percent=100": ["heap-growing-percent"],
};

/**
 * The heap flags memsvc should set, leaving out those the operator configured (in `execArgv` or
 * `NODE_OPTIONS`, spelled with `-` or `_`).
 *
 * @example
 * memsvcHeapFlags([], undefined); // ["--semi-space-growth-factor=1", "--heap-growing-percent=100"]
 * memsvcHeapFlags([], "--max-semi-space-size=64"); // ["--heap-growing-percent=100"]
 */
export function memsvcHeapFlags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const given = [...execArgv, nodeOptions ?? ""].join(" ").replaceAll("_", "-");
  return MEMSVC_HEAP_FLAGS.filter((flag) =>
    OVERRIDDEN_BY[flag].every((setting) => !given.includes(`--${setting}`)),
  );
}

/**
 * From this many memories on, memsvc lets the young generation grow again (V8's default growth
 * factor, 2): the engine's own heap is then well over 100 MB, so the young generation's +28 MB
 * matter little, while a young generation kept at its startup size promotes request garbage into
 * a large old generation whose full collections stall queries. Measured at 100,000 memories
 * (docs/performance-memory.md, "Recall at 100,000"): recall p95 141 / 331 ms with the growth
 * factor at 1, 44 / 48 ms with it at 2, in back-to-back runs at load 5-8.
 */
export const LARGE_STORE_MEMORIES = 25_000;

/**
 * The flag that lets the young generation grow once the store is large, or `undefined` when
 * memsvc keeps its own setting (a small store) or the operator configured the young generation.
 *
 * @example
 * largeStoreHeapFlag(100_000, [], undefined); // "--semi-space-growth-factor=2"
 * largeStoreHeapFlag(10_000, [], undefined); // undefined
 */
export function largeStoreHeapFlag(
  memories: number,
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string | undefined {
  if (memories < LARGE_STORE_MEMORIES) return undefined;
  const ours = memsvcHeapFlags(execArgv, nodeOptions).includes("--semi-space-growth-factor=1");
  return ours ? "--semi-space-growth-factor=2" : undefined;
}
