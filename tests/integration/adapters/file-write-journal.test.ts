import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { crc32 } from "node:zlib";
import {
  FileWriteJournal,
  type JournalDamage,
  type JournalFiles,
} from "../../../adapters/system/index.js";
import { nodeJournalFiles } from "../../../adapters/system/journal-files.js";
import type { JournalEntry } from "../../../core/index.js";
import { describeWriteJournalContract } from "../../contracts/write-journal-contract.js";
import { marksShowApplied } from "../../support/journal-marks.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(): {
  dir: string;
  warnings: string[];
  open: (maxSegmentBytes?: number) => FileWriteJournal;
} {
  const dir = mkdtempSync(join(tmpdir(), "journal-"));
  dirs.push(dir);
  const warnings: string[] = [];
  return {
    dir,
    warnings,
    open: (maxSegmentBytes) =>
      new FileWriteJournal(dir, {
        warn: (m) => warnings.push(m),
        ...(maxSegmentBytes === undefined ? {} : { maxSegmentBytes }),
      }),
  };
}

/**
 * The real file layer, made to fail like a full disk (`full`: writes fail with ENOSPC after
 * writing part of what they were given) or a read-only one (`readOnly`: opens fail with EACCES).
 */
function fillableFiles(): { full: boolean; readOnly: boolean; files: JournalFiles } {
  const state = { full: false, readOnly: false, files: nodeJournalFiles };
  const fail = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
  state.files = {
    ...nodeJournalFiles,
    open: async (path, flags) => {
      if (state.readOnly) throw fail("EACCES");
      const handle = await nodeJournalFiles.open(path, flags);
      return {
        writev: async (buffers) => {
          if (!state.full) return handle.writev(buffers);
          await handle.writev([(buffers[0] as Buffer).subarray(0, 5)]);
          throw fail("ENOSPC");
        },
        datasync: () => handle.datasync(),
        truncate: (length) => handle.truncate(length),
        close: () => handle.close(),
      };
    },
  };
  return state;
}

describeWriteJournalContract("FileWriteJournal", async () => {
  const { open } = place();
  return { journal: () => open(), cleanup: () => Promise.resolve() };
});

function upsert(id: string): JournalEntry {
  return {
    op: "upsert",
    records: [
      {
        id,
        // Exact in float32, which is what the journal keeps of a vector (and Chroma stores).
        vector: [0.1875, -2.5, 1024],
        document: `note ${id}: déploiement ✓ "quoted" \n second line`,
        metadata: { type: "fact", confidence: 0.5, permanent: true },
      },
    ],
  };
}

const segments = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.endsWith(".wal"))
    .sort();

describe("FileWriteJournal", () => {
  it("gives back, after a reopen, every entry the store may lack, in order", async () => {
    const { open } = place();
    const journal = open();
    expect(await journal.open()).toEqual([]);
    const positions = await Promise.all([
      journal.append([upsert("a")]),
      journal.append([{ op: "update", updates: [{ id: "a", metadata: { n: 1 } }] }]),
      journal.append([{ op: "delete", ids: ["b"] }, upsert("c")]),
    ]);
    expect(positions).toEqual([1, 2, 4]);
    await journal.discardThrough(1);
    await journal.close();

    const again = open();
    // The store holds "a" (the applied mark says so): only what follows is replayed.
    expect(await again.open()).toEqual([
      { op: "update", updates: [{ id: "a", metadata: { n: 1 } }] },
      { op: "delete", ids: ["b"] },
      upsert("c"),
    ]);
    // Positions go on from what open() returned.
    expect(await again.append([upsert("d")])).toBe(4);
    await again.discardThrough(4);
    await again.close();
    expect(await open().open()).toEqual([]);
  });

  it("skips at a start what the store held at a crash (the applied mark, rewritten within markIntervalMs)", async () => {
    const { dir } = place();
    const journal = new FileWriteJournal(dir, { markIntervalMs: 0 });
    await journal.open();
    for (let i = 0; i < 10; i += 1) await journal.append([upsert(`r${i}`)]);
    await journal.discardThrough(7);
    await marksShowApplied(dir); // the marks' rewrite, due at once (markIntervalMs 0)
    // No close: a crash. One segment, three entries the store lacks.
    expect(segments(dir).length).toBe(1);
    const replayed = await new FileWriteJournal(dir).open();
    expect(replayed).toEqual([upsert("r7"), upsert("r8"), upsert("r9")]);
    await journal.close();
  });

  it("deletes a segment once all of it is discarded; a clean close leaves none", async () => {
    const { dir, open } = place();
    const journal = open(200);
    await journal.open();
    for (let i = 0; i < 5; i += 1) await journal.append([upsert(`r${i}`)]);
    expect(segments(dir).length).toBe(5); // each frame fills a 200-byte segment
    await journal.discardThrough(3);
    expect(segments(dir).length).toBe(2);
    await journal.discardThrough(5);
    await journal.close();
    expect(segments(dir)).toEqual([]);
  });

  it("never calls a torn end past the synced mark 'never acknowledged': it cannot tell", async () => {
    const { dir, warnings } = place();
    const journal = new FileWriteJournal(dir, { markIntervalMs: 60_000 });
    await journal.open(); // marks written now: nothing synced yet
    await journal.append([upsert("a")]);
    await journal.append([upsert("b")]);
    // A crash before the marks were rewritten; the last frame was cut.
    const [name] = segments(dir);
    const path = join(dir, name as string);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 5));
    const damages: JournalDamage[] = [];
    const leftover = await new FileWriteJournal(dir, { onDamage: (d) => damages.push(d) }).open();
    expect(leftover).toEqual([upsert("a")]);
    expect(damages).toHaveLength(1);
    expect(damages[0]?.kind).toBe("unknown");
    expect(damages[0]?.message).toMatch(/torn frame at byte \d+ .*cannot tell/);
    expect(damages[0]?.message).not.toMatch(/never acknowledged\)?;? ignored/);
    expect(warnings).toEqual([]);
    await journal.close();
  });

  it.each([
    ["1 byte", (n: number) => n - 1],
    ["100 bytes", (n: number) => n - 100],
    ["half", (n: number) => Math.floor(n / 2)],
  ])(
    "counts the acknowledged deletes lost when a synced journal is cut by %s",
    async (_, cutTo) => {
      const { dir } = place();
      const journal = new FileWriteJournal(dir);
      await journal.open();
      for (let i = 0; i < 40; i += 1) await journal.append([upsert(`m${i}`)]);
      for (let i = 0; i < 20; i += 1) await journal.append([{ op: "delete", ids: [`m${i}`] }]);
      await journal.close(); // footer and marks: all 60 entries were synced
      const [name] = segments(dir);
      const path = join(dir, name as string);
      const bytes = readFileSync(path);
      writeFileSync(path, bytes.subarray(0, cutTo(bytes.length)));
      const damages: JournalDamage[] = [];
      const leftover = await new FileWriteJournal(dir, { onDamage: (d) => damages.push(d) }).open();
      expect(damages).toHaveLength(1);
      expect(damages[0]?.kind).toBe("lost");
      expect(damages[0]?.lostEntries).toBe(60 - leftover.length);
      expect(damages[0]?.message).toMatch(/damaged after it was synced/);
      expect(damages[0]?.message).not.toMatch(/never acknowledged/);
      if (cutTo(bytes.length) === bytes.length - 1) {
        // Only the footer was hit: nothing is missing.
        expect(leftover).toHaveLength(60);
        expect(damages[0]?.message).toMatch(/no entry is missing/);
      } else {
        expect(damages[0]?.message).toMatch(/\d+ acknowledged entr(y is|ies are) lost/);
      }
    },
  );

  it("reads on after a corrupt frame in the middle of a segment: only that frame is lost, counted", async () => {
    const { dir } = place();
    const journal = new FileWriteJournal(dir);
    await journal.open();
    for (let i = 0; i < 5; i += 1) await journal.append([{ op: "delete", ids: [`d${i}`] }]);
    await journal.close();
    const [name] = segments(dir);
    const path = join(dir, name as string);
    const bytes = readFileSync(path);
    const third = bytes.indexOf(Buffer.from('"d2"'));
    bytes.writeUInt8((bytes[third + 1] as number) ^ 0xff, third + 1);
    writeFileSync(path, bytes);
    const damages: JournalDamage[] = [];
    const leftover = await new FileWriteJournal(dir, { onDamage: (d) => damages.push(d) }).open();
    expect(leftover.flatMap((e) => (e.op === "delete" ? e.ids : []))).toEqual([
      "d0",
      "d1",
      "d3",
      "d4",
    ]);
    expect(damages.map((d) => [d.kind, d.lostEntries])).toEqual([["lost", 1]]);
    expect(damages[0]?.message).toMatch(/corrupt frame at byte \d+/);
  });

  it("finds the next frame after garbage over a frame's header", async () => {
    const { dir } = place();
    const journal = new FileWriteJournal(dir);
    await journal.open();
    for (let i = 0; i < 3; i += 1) await journal.append([{ op: "delete", ids: [`d${i}`] }]);
    await journal.close();
    const [name] = segments(dir);
    const path = join(dir, name as string);
    const bytes = readFileSync(path);
    const second = bytes.indexOf(Buffer.from("WJ2"), 1);
    bytes.fill(0x20, second, second + 10);
    writeFileSync(path, bytes);
    const leftover = await new FileWriteJournal(dir, { onDamage: () => undefined }).open();
    expect(leftover.flatMap((e) => (e.op === "delete" ? e.ids : []))).toEqual(["d0", "d2"]);
  });

  it("still reads a segment of the first format (no magic), up to its first bad frame", async () => {
    const { dir, warnings } = place();
    const frame = (entries: JournalEntry[]) => {
      const payload = Buffer.from(JSON.stringify(entries));
      const header = Buffer.alloc(8);
      header.writeUInt32LE(payload.length, 0);
      header.writeUInt32LE(crc32(payload), 4);
      return Buffer.concat([header, payload]);
    };
    writeFileSync(
      join(dir, "journal-000000000003.wal"),
      Buffer.concat([frame([{ op: "delete", ids: ["x"] }]), Buffer.from("torn")]),
    );
    const journal = new FileWriteJournal(dir, { warn: (m) => warnings.push(m) });
    expect(await journal.open()).toEqual([{ op: "delete", ids: ["x"] }]);
    expect(warnings.join("\n")).toMatch(/torn frame at byte \d+/);
    // New segments are numbered after it.
    await journal.append([{ op: "delete", ids: ["y"] }]);
    expect(segments(dir)).toContain("journal-000000000004.wal");
    await journal.close();
  });

  it("refuses writes on a full disk with insufficient_storage, loses nothing it acknowledged, and takes writes again once there is room", async () => {
    const { dir } = place();
    const disk = fillableFiles();
    const journal = new FileWriteJournal(dir, { files: disk.files });
    await journal.open();
    expect(await journal.append([upsert("a")])).toBe(1);
    disk.full = true;
    const refused = await journal.append([upsert("b")]).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "insufficient_storage" });
    expect((refused as Error).message).toMatch(/no space left for the write journal in .*ENOSPC/);
    disk.full = false;
    const at = await journal.append([upsert("c")]);
    expect(at).toBeGreaterThan(1);
    await journal.close();
    // The partial frame the full disk left was cut: the segment reads clean.
    const damages: JournalDamage[] = [];
    expect(await new FileWriteJournal(dir, { onDamage: (d) => damages.push(d) }).open()).toEqual([
      upsert("a"),
      upsert("c"),
    ]);
    expect(damages).toEqual([]);
  });

  it("names the path in a config error when the journal directory is a file or cannot be written", async () => {
    const { dir } = place();
    const file = join(dir, "journal");
    writeFileSync(file, "not a directory");
    await expect(new FileWriteJournal(file).open()).rejects.toMatchObject({
      code: "config_invalid",
      message: expect.stringMatching(new RegExp(`${file} is not a directory`)),
    });
    const readOnly = fillableFiles();
    readOnly.readOnly = true;
    await expect(
      new FileWriteJournal(join(dir, "other"), { files: readOnly.files }).open(),
    ).rejects.toMatchObject({
      code: "config_invalid",
      message: expect.stringMatching(/cannot be written \(EACCES/),
    });
  });

  it("keeps every acknowledged append when the process is killed (SIGKILL) mid-stream", async () => {
    const { dir, open } = place();
    // A child appends as fast as it can and prints each acknowledged position; it is killed.
    const script = `
      import { FileWriteJournal } from ${JSON.stringify(new URL("../../../adapters/system/index.ts", import.meta.url).pathname)};
      const journal = new FileWriteJournal(${JSON.stringify(dir)});
      await journal.open();
      let n = 0;
      const loop = async () => { for (;;) { const id = "id" + n++; await journal.append([{ op: "delete", ids: [id] }]); process.stdout.write(id + "\\n"); } };
      void loop(); void loop(); void loop();
      setTimeout(() => process.kill(process.pid, "SIGKILL"), 400);
    `;
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        encoding: "utf8",
        timeout: 30_000,
      },
    );
    expect(child.signal).toBe("SIGKILL");
    const acknowledged = child.stdout.split("\n").filter((line) => line !== "");
    expect(acknowledged.length).toBeGreaterThan(10);
    const kept = new Set((await open().open()).flatMap((e) => (e.op === "delete" ? e.ids : [])));
    expect(acknowledged.filter((id) => !kept.has(id))).toEqual([]);
  });

  it("keeps vectors as float32", async () => {
    const { open } = place();
    const journal = open();
    await journal.open();
    await journal.append([
      { op: "upsert", records: [{ id: "v", vector: [0.1, -1 / 3], document: "d", metadata: {} }] },
    ]);
    await journal.close();
    const [entry] = await open().open();
    expect(entry?.op === "upsert" && entry.records[0]?.vector).toEqual([
      Math.fround(0.1),
      Math.fround(-1 / 3),
    ]);
  });

  it("refuses appends before open and after close", async () => {
    const { open } = place();
    const journal = open();
    await expect(journal.append([upsert("a")])).rejects.toThrow(/open journal/);
    await journal.open();
    await journal.close();
    await expect(journal.append([upsert("a")])).rejects.toThrow(/open journal/);
  });
});
