import { mkdir, open, readdir, readFile, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { JournalEntry, WriteJournal } from "../../core/ports/write-journal.js";
import { syncDirectory } from "./sync-directory.js";

/** Bytes before each frame's payload: its length and its CRC-32, little-endian. */
const FRAME_HEADER = 8;
const SEGMENT = /^journal-(\d{12})\.wal$/;

/** Options of {@link FileWriteJournal}. */
export interface FileWriteJournalOptions {
  /** A segment file is closed and a new one started past this size. Default 8 MiB. */
  readonly maxSegmentBytes?: number;
  /** Told when a segment ends in a torn or corrupt frame (what followed it is not read). */
  readonly warn?: (message: string) => void;
}

interface Segment {
  readonly path: string;
  readonly sequence: number;
  /** Position of its last entry (0: none yet). */
  last: number;
  bytes: number;
}

interface Append {
  readonly header: Buffer;
  readonly payload: Buffer;
  readonly last: number;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * {@link WriteJournal} in a directory of append-only segment files (`journal-000000000001.wal`,
 * …). Each append is one frame: payload length, CRC-32, then the entries as JSON (vectors as
 * base64 float32: they come back rounded to float32, which is what Chroma stores of them). Appends made
 * while a write is being synced are written together with one `fdatasync` (group commit), so a
 * sync is shared by every concurrent writer. A segment is deleted once every entry in it is
 * discarded; a new one is started when the current one is full or fully discarded. Reading stops
 * at the first torn or corrupt frame of a segment: a crash mid-write leaves one, and that append
 * was never acknowledged.
 *
 * @example
 * const journal = new FileWriteJournal(join(dataDir, "journal"), { warn: logger.warn });
 * const leftover = await journal.open();
 * const position = await journal.append([{ op: "delete", ids: ["a"] }]);
 */
export class FileWriteJournal implements WriteJournal {
  readonly #directory: string;
  readonly #maxSegmentBytes: number;
  readonly #warn: (message: string) => void;
  readonly #segments: Segment[] = [];
  #handle: FileHandle | undefined;
  #next = 1;
  #discarded = 0;
  #sequence = 0;
  #group: Append[] = [];
  #writing: Promise<void> | undefined;
  #opened = false;
  #closed = false;

  constructor(directory: string, options: FileWriteJournalOptions = {}) {
    this.#directory = directory;
    this.#maxSegmentBytes = options.maxSegmentBytes ?? 8 * 1024 * 1024;
    this.#warn = options.warn ?? (() => undefined);
  }

  async open(): Promise<readonly JournalEntry[]> {
    if (this.#opened) throw new Error("FileWriteJournal: open() was already called");
    this.#opened = true;
    await mkdir(this.#directory, { recursive: true });
    const names = (await readdir(this.#directory)).filter((n) => SEGMENT.test(n)).sort();
    const entries: JournalEntry[] = [];
    for (const name of names) {
      const path = join(this.#directory, name);
      const read = readFrames(await readFile(path));
      if (read.problem !== undefined) this.#warn(`write journal ${path}: ${read.problem}`);
      entries.push(...read.entries);
      const sequence = Number(SEGMENT.exec(name)?.[1]);
      this.#segments.push({ path, sequence, last: entries.length, bytes: read.bytes });
      this.#sequence = Math.max(this.#sequence, sequence);
    }
    this.#next = entries.length + 1;
    return entries;
  }

  append(entries: readonly JournalEntry[]): Promise<number> {
    if (!this.#opened || this.#closed) {
      return Promise.reject(new Error("FileWriteJournal: append() needs an open journal"));
    }
    const payload = Buffer.from(JSON.stringify(entries.map(compactEntry)), "utf8");
    const header = Buffer.allocUnsafe(FRAME_HEADER);
    header.writeUInt32LE(payload.length, 0);
    header.writeUInt32LE(crc32(payload), 4);
    this.#next += entries.length;
    const last = this.#next - 1;
    return new Promise((resolve, reject) => {
      this.#group.push({ header, payload, last, resolve, reject });
      this.#startWriting();
    });
  }

  #startWriting(): void {
    this.#writing ??= this.#writeGroups().finally(() => {
      this.#writing = undefined;
      // Appends made as the loop ended.
      if (this.#group.length > 0) this.#startWriting();
    });
  }

  async discardThrough(position: number): Promise<void> {
    this.#discarded = Math.max(this.#discarded, position);
    // The open segment goes when the next write starts a new one.
    const current = this.#handle === undefined ? undefined : this.#segments.at(-1);
    const done = this.#segments.filter((s) => s !== current && s.last <= this.#discarded);
    for (const segment of done) {
      const at = this.#segments.indexOf(segment);
      if (at >= 0) this.#segments.splice(at, 1);
      await rm(segment.path, { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing;
    await this.#handle?.close();
    this.#handle = undefined;
    await this.discardThrough(this.#discarded);
  }

  /** Writes the queued frames, one group (one write + one sync) at a time. */
  async #writeGroups(): Promise<void> {
    while (this.#group.length > 0) {
      const group = this.#group;
      this.#group = [];
      const buffers = group.flatMap((a) => [a.header, a.payload]);
      const bytes = buffers.reduce((sum, b) => sum + b.length, 0);
      try {
        const segment = await this.#segmentFor();
        await writeAll(this.#handle as FileHandle, buffers, bytes);
        await (this.#handle as FileHandle).datasync();
        segment.bytes += bytes;
        segment.last = (group.at(-1) as Append).last;
      } catch (error) {
        // A partial frame may now end the segment: later frames go to a new one.
        await this.#closeSegment().catch(() => undefined);
        for (const append of group) append.reject(error);
        continue;
      }
      for (const append of group) append.resolve(append.last);
    }
  }

  /** The open segment, after starting a new one when it is full or holds only discarded entries. */
  async #segmentFor(): Promise<Segment> {
    const current = this.#segments.at(-1);
    if (this.#handle !== undefined && current !== undefined) {
      const drained = current.last <= this.#discarded;
      if (current.bytes < this.#maxSegmentBytes && !drained) return current;
      await this.#closeSegment();
      if (drained) await this.discardThrough(this.#discarded);
    }
    this.#sequence += 1;
    const name = `journal-${String(this.#sequence).padStart(12, "0")}.wal`;
    const path = join(this.#directory, name);
    this.#handle = await open(path, "a", 0o600);
    await syncDirectory(this.#directory);
    const segment: Segment = { path, sequence: this.#sequence, last: 0, bytes: 0 };
    this.#segments.push(segment);
    return segment;
  }

  async #closeSegment(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }
}

/** The entries of a segment's frames, up to the first torn or corrupt one. */
function readFrames(file: Buffer): { entries: JournalEntry[]; bytes: number; problem?: string } {
  const entries: JournalEntry[] = [];
  let at = 0;
  while (at < file.length) {
    if (file.length - at < FRAME_HEADER) return torn(entries, at, file.length);
    const length = file.readUInt32LE(at);
    const end = at + FRAME_HEADER + length;
    if (end > file.length) return torn(entries, at, file.length);
    const payload = file.subarray(at + FRAME_HEADER, end);
    if (crc32(payload) !== file.readUInt32LE(at + 4)) {
      return { entries, bytes: at, problem: `corrupt frame at byte ${at}; the rest is ignored` };
    }
    for (const entry of JSON.parse(payload.toString("utf8")) as JournalEntry[]) {
      entries.push(expandEntry(entry));
    }
    at = end;
  }
  return { entries, bytes: at };
}

function torn(entries: JournalEntry[], at: number, size: number) {
  return {
    entries,
    bytes: at,
    problem: `torn frame at byte ${at} (${size - at} bytes, never acknowledged); ignored`,
  };
}

/** Writes every buffer (in as few `writev` calls as the kernel allows). */
async function writeAll(handle: FileHandle, buffers: Buffer[], total: number): Promise<void> {
  let written = 0;
  let rest = buffers;
  for (;;) {
    written += (await handle.writev(rest)).bytesWritten;
    if (written >= total) return;
    // A short write: go on from the first byte not written.
    let skip = written;
    rest = [];
    for (const buffer of buffers) {
      if (skip >= buffer.length) skip -= buffer.length;
      else {
        rest.push(buffer.subarray(skip));
        skip = 0;
      }
    }
  }
}

/**
 * Vectors as base64 little-endian float32 (a third of their JSON size, and what Chroma keeps of
 * them anyway: it stores float32).
 */
function compactEntry(entry: JournalEntry): unknown {
  if (entry.op !== "upsert") return entry;
  return {
    op: "upsert",
    records: entry.records.map((r) => ({ ...r, vector: encodeVector(r.vector) })),
  };
}

function expandEntry(entry: JournalEntry): JournalEntry {
  if (entry.op !== "upsert") return entry;
  return {
    op: "upsert",
    records: entry.records.map((r) => ({
      ...r,
      vector: typeof r.vector === "string" ? decodeVector(r.vector) : r.vector,
    })),
  };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function encodeVector(vector: readonly number[]): string {
  const floats = Float32Array.from(vector);
  const bytes = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  if (!LITTLE_ENDIAN) bytes.swap32();
  return bytes.toString("base64");
}

function decodeVector(text: string): number[] {
  // A copy into a fresh, aligned buffer: a decoded Buffer may sit at any offset of its pool.
  const bytes = new Uint8Array(Buffer.from(text, "base64"));
  if (!LITTLE_ENDIAN) Buffer.from(bytes.buffer).swap32();
  return Array.from(new Float32Array(bytes.buffer));
}
