import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileWriteJournal } from "../../../adapters/system/index.js";
import type { JournalEntry } from "../../../core/index.js";
import { describeWriteJournalContract } from "../../contracts/write-journal-contract.js";

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

describeWriteJournalContract("FileWriteJournal", async () => {
  const { open } = place();
  return { journal: () => open(), cleanup: () => Promise.resolve() };
});

/** A closed journal with one segment of two frames (upserts of "a" and "b"), and its bytes. */
async function twoFrames() {
  const journal = place();
  const first = journal.open();
  await first.open();
  await first.append([upsert("a")]);
  await first.append([upsert("b")]);
  await first.close();
  const [name] = segments(journal.dir);
  const path = join(journal.dir, name as string);
  return { ...journal, path, bytes: readFileSync(path) };
}

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
  it("gives back, after a reopen, every entry appended and not discarded, in order", async () => {
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
    expect(await again.open()).toEqual([
      upsert("a"),
      { op: "update", updates: [{ id: "a", metadata: { n: 1 } }] },
      { op: "delete", ids: ["b"] },
      upsert("c"),
    ]);
    // Positions go on from what open() returned.
    expect(await again.append([upsert("d")])).toBe(5);
    await again.discardThrough(5);
    await again.close();
    expect(await open().open()).toEqual([]);
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

  it("drops a torn last frame (a write the crash cut) and warns", async () => {
    const { open, warnings, path, bytes } = await twoFrames();
    writeFileSync(path, bytes.subarray(0, bytes.length - 5));
    expect(await open().open()).toEqual([upsert("a")]);
    expect(warnings.join("\n")).toMatch(/torn frame at byte \d+/);
  });

  it("stops a segment at a corrupt frame but still reads the next segment", async () => {
    const { open, warnings, path, bytes } = await twoFrames();
    bytes.writeUInt8((bytes.at(-3) as number) ^ 0xff, bytes.length - 3); // a byte of b's payload
    writeFileSync(path, bytes);
    appendFileSync(path, Buffer.from("garbage after it"));
    // A later run wrote a second segment before crashing too.
    const second = open();
    expect(await second.open()).toEqual([upsert("a")]);
    await second.append([upsert("c")]);
    await second.close();
    expect(await open().open()).toEqual([upsert("a"), upsert("c")]);
    expect(warnings.join("\n")).toMatch(/corrupt frame at byte \d+/);
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
