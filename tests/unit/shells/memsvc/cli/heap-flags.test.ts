import { describe, expect, it } from "vitest";
import { MEMSVC_HEAP_FLAGS, memsvcHeapFlags } from "../../../../../shells/memsvc/cli/heap-flags.js";

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
