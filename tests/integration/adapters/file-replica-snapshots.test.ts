import { mkdtemp, readdir, readFile, rm, truncate, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileReplicaSnapshots, REPLICA_SNAPSHOT_FILE } from "../../../adapters/system/index.js";
import type { ReplicaSnapshot } from "../../../core/index.js";

const dirs: string[] = [];
async function dir(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), "file-replica-snapshots-"));
  dirs.push(made);
  return made;
}

afterAll(async () => {
  for (const made of dirs) await rm(made, { recursive: true, force: true });
});

/** A snapshot whose shape exercises every kind of section (not a real engine image). */
function sample(): ReplicaSnapshot {
  const texts = Array.from(
    { length: 200 },
    (_, i) => `memory ${i}: Straße café 東京 🚀 ${"x".repeat(i)}`,
  );
  // Longer than the buffer strings are encoded into, and two that cross its end.
  texts.push("é".repeat(700_000), "東".repeat(200_000), "🚀".repeat(100_000));
  const image = {
    contents: texts,
    ascii: Array.from({ length: 100 }, (_, i) => `id-${i}`),
    short: ["a", "b"],
    nested: [["tag", "ops"], []],
    int8: Int8Array.of(-128, 0, 127),
    uint8: Uint8Array.of(1, 2, 255),
    uint16: Uint16Array.of(65535, 0),
    int32: Int32Array.of(-1, 2 ** 31 - 1),
    float32: Float32Array.of(0.1, -0, Number.NaN),
    float64: Float64Array.of(Math.PI, 8_640_000_000_000_000, -Infinity),
    empty: new Int32Array(0),
    bound: Infinity,
  };
  return {
    seq: 42,
    stamp: "42:abc:1700000000000000",
    space: { embedderId: "local-glove-sif-v1", dimensions: 100 },
    tenants: [
      { tenant: "default", image: image as unknown as ReplicaSnapshot["tenants"][0]["image"] },
    ],
  };
}

describe("FileReplicaSnapshots", () => {
  it("gives back what it saved: typed arrays, Unicode and long strings, nested lists, infinities", async () => {
    const snapshots = new FileReplicaSnapshots(await dir(), { storeId: "s1" });
    expect(await snapshots.load()).toBeUndefined();
    await snapshots.save(sample());
    const saved = await snapshots.load();
    const { tenants, ...header } = sample();
    expect(saved).toMatchObject(header);
    expect(await saved?.tenants()).toEqual(tenants);
  });

  it("reads each typed array into the array a placer gives for it, and refuses a misfit", async () => {
    const snapshots = new FileReplicaSnapshots(await dir(), { storeId: "s1" });
    await snapshots.save(sample());
    const asked: string[] = [];
    const target = new Float32Array(3);
    const tenants = await (
      await snapshots.load()
    )?.tenants((path, type, length) => {
      asked.push(`${path.join(".")} ${type} ${length}`);
      return path.at(-1) === "float32" ? target : undefined;
    });
    expect(asked).toContain("0.image.float32 Float32Array 3");
    expect(asked).toContain("0.image.empty Int32Array 0");
    const image = tenants?.[0]?.image as unknown as Record<string, unknown>;
    expect(image["float32"]).toBe(target);
    expect(image).toEqual(sample().tenants[0]?.image);
    const misfit = (await snapshots.load())?.tenants(() => new Uint8Array(1));
    await expect(misfit).rejects.toThrow(/placed array is not a Int8Array of its size/);
  });

  it("ignores, with a warning, a file saved for another store or torn", async () => {
    const folder = await dir();
    const warnings: string[] = [];
    await new FileReplicaSnapshots(folder, { storeId: "postgres schema 3" }).save(sample());
    const other = new FileReplicaSnapshots(folder, {
      storeId: "postgres schema 4",
      warn: (m) => warnings.push(m),
    });
    expect(await other.load()).toBeUndefined();
    expect(warnings.at(-1)).toMatch(
      /saved from postgres schema 3, this store is postgres schema 4/,
    );
    const same = new FileReplicaSnapshots(folder, {
      storeId: "postgres schema 3",
      warn: (m) => warnings.push(m),
    });
    const path = join(folder, REPLICA_SNAPSHOT_FILE);
    const bytes = await readFile(path);
    await truncate(path, bytes.length - 100);
    expect(await same.load()).toBeUndefined();
    expect(warnings.at(-1)).toMatch(/bad magic/);
    await writeFile(path, "not a snapshot");
    expect(await same.load()).toBeUndefined();
    expect(warnings).toHaveLength(3);
  });

  it("removes the temporary file of a save killed over an hour ago, not a recent one", async () => {
    const folder = await dir();
    const killed = join(folder, `${REPLICA_SNAPSHOT_FILE}.1234.tmp`);
    const running = join(folder, `${REPLICA_SNAPSHOT_FILE}.5678.tmp`);
    await writeFile(killed, "half a snapshot");
    await writeFile(running, "another replica's save in progress");
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(killed, twoHoursAgo, twoHoursAgo);
    await new FileReplicaSnapshots(folder, { storeId: "s1" }).save(sample());
    expect((await readdir(folder)).sort()).toEqual(
      [REPLICA_SNAPSHOT_FILE, `${REPLICA_SNAPSHOT_FILE}.5678.tmp`].sort(),
    );
  });
});
