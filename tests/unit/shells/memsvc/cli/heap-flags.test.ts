import { describe, expect, it } from "vitest";
import {
  LARGE_STORE_MEMORIES,
  MEMSVC_HEAP_FLAGS,
  largeStoreHeapFlag,
  memsvcHeapFlags,
} from "../../../../../shells/memsvc/cli/heap-flags.js";

describe("memsvcHeapFlags", () => {
  it("sets every memsvc heap flag when the operator configured none", () => {
    expect(memsvcHeapFlags([], undefined)).toEqual([...MEMSVC_HEAP_FLAGS]);
    expect(memsvcHeapFlags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([
      ...MEMSVC_HEAP_FLAGS,
    ]);
  });

  it("keeps the operator's young generation size from NODE_OPTIONS or the command line", () => {
    expect(memsvcHeapFlags([], "--max-semi-space-size=64")).toEqual(["--heap-growing-percent=100"]);
    expect(memsvcHeapFlags(["--max_semi_space_size=8"], undefined)).toEqual([
      "--heap-growing-percent=100",
    ]);
    expect(memsvcHeapFlags([], "--semi-space-growth-factor=2")).toEqual([
      "--heap-growing-percent=100",
    ]);
  });

  it("keeps the operator's old generation growth", () => {
    expect(memsvcHeapFlags(["--heap-growing-percent=50"], undefined)).toEqual([
      "--semi-space-growth-factor=1",
    ]);
  });
});

describe("largeStoreHeapFlag", () => {
  it("lets the young generation grow from LARGE_STORE_MEMORIES memories on", () => {
    expect(largeStoreHeapFlag(LARGE_STORE_MEMORIES - 1, [], undefined)).toBeUndefined();
    expect(largeStoreHeapFlag(LARGE_STORE_MEMORIES, [], undefined)).toBe(
      "--semi-space-growth-factor=2",
    );
  });

  it("leaves a young generation the operator configured alone", () => {
    expect(largeStoreHeapFlag(100_000, [], "--max-semi-space-size=64")).toBeUndefined();
    expect(
      largeStoreHeapFlag(100_000, ["--semi-space-growth-factor=3"], undefined),
    ).toBeUndefined();
  });
});
