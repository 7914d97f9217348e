import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileEngineSnapshots } from "../../../adapters/system/index.js";
import type { EngineSnapshot, VectorRecord } from "../../../core/index.js";
import { describeEngineSnapshotsContract } from "../../contracts/engine-snapshots-contract.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(): { path: string; warnings: string[]; snapshots: FileEngineSnapshots } {
  const dir = mkdtempSync(join(tmpdir(), "snapshots-"));
  dirs.push(dir);
  const path = join(dir, "engine.snapshot");
  const warnings: string[] = [];
  return {
    path,
    warnings,
    snapshots: new FileEngineSnapshots(path, { warn: (m) => warnings.push(m) }),
  };
}

describeEngineSnapshotsContract("FileEngineSnapshots", async () => ({
  snapshots: place().snapshots,
  cleanup: () => Promise.resolve(),
}));

/** Records whose vector components are exact in float32, with unicode and every metadata type. */
function records(n: number): VectorRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    document: `note ${i}: déploiement le vendredi ✓ "quoted" \n second line`,
    metadata: { type: "fact", confidence: i / 4, permanent: i % 2 === 0, tags: `["t${i}"]` },
    vector: [i / 8, -0.5, 0.25, 1],
  }));
}

function all(snapshot: EngineSnapshot | undefined, pageSize = 3): VectorRecord[] {
  return [...(snapshot?.pages(pageSize) ?? [])].flat();
}

describe("FileEngineSnapshots", () => {
  it("loads back what it saved, page by page, under its mark", async () => {
    const { snapshots, warnings } = place();
    const saved = records(10);
    await snapshots.save("mark-1", saved);
    const loaded = await snapshots.load();
    expect(loaded?.mark).toBe("mark-1");
    expect(loaded?.count).toBe(10);
    expect([...(loaded?.pages(4) ?? [])].map((page) => page.length)).toEqual([4, 4, 2]);
    expect(all(loaded)).toEqual(saved);
    expect(warnings).toEqual([]);
  });

  it("has no snapshot before the first save, and an empty one after saving nothing", async () => {
    const { snapshots } = place();
    expect(await snapshots.load()).toBeUndefined();
    await snapshots.save("empty", []);
    const loaded = await snapshots.load();
    expect(loaded?.count).toBe(0);
    expect(all(loaded)).toEqual([]);
  });

  it("replaces the previous snapshot whole and leaves no temporary file", async () => {
    const { snapshots, path } = place();
    await snapshots.save("old", records(5));
    await snapshots.save("new", records(2));
    const loaded = await snapshots.load();
    expect(loaded?.mark).toBe("new");
    expect(all(loaded)).toEqual(records(2));
    expect(readdirSync(join(path, ".."))).toEqual(["engine.snapshot"]);
  });

  it("treats a torn, corrupted or foreign file as no snapshot and says why", async () => {
    const { snapshots, path, warnings } = place();
    await snapshots.save("m", records(6));
    const good = readFileSync(path);

    writeFileSync(path, good.subarray(0, good.length - 3));
    expect(await snapshots.load()).toBeUndefined();
    const flipped = Buffer.from(good);
    flipped[flipped.length - 2] = (flipped[flipped.length - 2] ?? 0) ^ 0xff;
    writeFileSync(path, flipped);
    expect(await snapshots.load()).toBeUndefined();
    writeFileSync(path, "not a snapshot at all");
    expect(await snapshots.load()).toBeUndefined();

    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/sizes do not match/);
    expect(warnings[1]).toMatch(/CRC-32 mismatch/);
    expect(warnings[2]).toMatch(/bad magic/);
  });

  it("refuses to save records of mixed dimensions", async () => {
    const { snapshots } = place();
    const mixed = [...records(2), { ...records(1)[0], id: "x", vector: [1, 0] } as VectorRecord];
    await expect(snapshots.save("m", mixed)).rejects.toThrow(
      /record x has 2 dimensions, expected 4/,
    );
    expect(await snapshots.load()).toBeUndefined();
  });
});
