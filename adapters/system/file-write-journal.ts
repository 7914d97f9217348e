/**
 * `FileWriteJournal`: the write journal in a directory of segment files (frame format:
 * `journal-frames.ts`; file layer: `journal-files.ts`).
 * Long because: one class whose open (reading segments back and judging their damage against
 * the marks), group-committed appends and marks share the segments' bookkeeping.
 */
import { join } from "node:path";
import type { JournalEntry, WriteJournal } from "../../core/ports/write-journal.js";
import { entryFrame, footerFrame, readSegment, type ReadSegment } from "./journal-frames.js";
import {
  journalDirectoryError,
  journalWriteError,
  nodeJournalFiles,
  type JournalFile,
  type JournalFiles,
} from "./journal-files.js";
import { judgeDamage, type JournalDamage, type SegmentMark } from "./journal-damage.js";

export type { JournalDamage, SegmentMark } from "./journal-damage.js";

const SEGMENT = /^journal-(\d{12})\.wal$/;
/** The marks file: per segment, what the store has and what was synced (see {@link SegmentMark}). */
export const JOURNAL_MARKS_FILE = "journal.marks";

/** Options of {@link FileWriteJournal}. */
export interface FileWriteJournalOptions {
  /** A segment file is closed and a new one started past this size. Default 8 MiB. */
  readonly maxSegmentBytes?: number;
  /** Told about damage `open()` found (default: `warn` with its message). */
  readonly onDamage?: (damage: JournalDamage) => void;
  /** Told about what is not damage but worth knowing (a marks file that cannot be read). */
  readonly warn?: (message: string) => void;
  /** The marks file is rewritten at most this often (and at close). Default 1,000 ms. */
  readonly markIntervalMs?: number;
  /** The file layer (tests pass one that fails like a full disk). Default: the real one. */
  readonly files?: JournalFiles;
}

interface Marks {
  readonly lastSequence: number;
  readonly segments: Record<string, SegmentMark>;
}

interface Segment {
  readonly path: string;
  readonly sequence: number;
  /** Frames the store may not hold yet: the position of each one's last entry, the byte it ends at. */
  readonly frames: { last: number; end: number }[];
  /** Position of its last entry (0: none yet). */
  last: number;
  appliedBytes: number;
  /** Bytes written and synced. */
  bytes: number;
  /** Readable entries in it. */
  entries: number;
}

interface Append {
  readonly buffers: Buffer[];
  readonly count: number;
  readonly last: number;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * {@link WriteJournal} in a directory of append-only segment files (`journal-000000000001.wal`,
 * …), one frame per append (entries as JSON, vectors as base64 float32: they come back rounded
 * to float32, which is what Chroma stores of them). Appends made while a write is being synced
 * are written together with one `fdatasync` (group commit). A segment is closed with a footer
 * when full, and deleted once every entry in it is discarded.
 *
 * A marks file (`journal.marks`, rewritten atomically at most once a second and at close) keeps
 * per segment how far the store has it, so a start replays only what the store may lack, and how
 * far it was synced, so a start tells damage below that mark (acknowledged writes lost: counted
 * and reported as such) from a torn end past it, which a crash in mid-write also leaves (then
 * nobody can tell whether it was acknowledged, and the report says so). A damaged frame in the
 * middle of a segment costs that frame only: reading goes on at the next sound one.
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
  readonly #onDamage: (damage: JournalDamage) => void;
  readonly #markIntervalMs: number;
  readonly #files: JournalFiles;
  readonly #segments: Segment[] = [];
  #handle: JournalFile | undefined;
  #next = 1;
  #discarded = 0;
  #sequence = 0;
  #group: Append[] = [];
  #writing: Promise<void> | undefined;
  #marksTimer: NodeJS.Timeout | undefined;
  #marksWrite: Promise<void> = Promise.resolve();
  #opened = false;
  #closed = false;

  constructor(directory: string, options: FileWriteJournalOptions = {}) {
    this.#directory = directory;
    this.#maxSegmentBytes = options.maxSegmentBytes ?? 8 * 1024 * 1024;
    this.#warn = options.warn ?? (() => undefined);
    this.#onDamage = options.onDamage ?? ((damage) => this.#warn(damage.message));
    this.#markIntervalMs = options.markIntervalMs ?? 1_000;
    this.#files = options.files ?? nodeJournalFiles;
  }

  async open(): Promise<readonly JournalEntry[]> {
    if (this.#opened) throw new Error("FileWriteJournal: open() was already called");
    this.#opened = true;
    let names: string[];
    try {
      await this.#files.mkdir(this.#directory);
      names = (await this.#files.readdir(this.#directory)).filter((n) => SEGMENT.test(n)).sort();
    } catch (error) {
      throw journalDirectoryError(error, this.#directory);
    }
    const marks = await this.#readMarks();
    this.#sequence = marks.lastSequence;
    const entries: JournalEntry[] = [];
    for (const name of names) {
      const path = join(this.#directory, name);
      const sequence = Number(SEGMENT.exec(name)?.[1]);
      this.#sequence = Math.max(this.#sequence, sequence);
      const file = await this.#files.readFile(path);
      const read = readSegment(file);
      const mark = marks.segments[String(sequence)];
      for (const damage of judgeDamage(path, file.length, read, mark)) {
        this.#onDamage(damage);
      }
      const segment = this.#keep(path, sequence, read, mark, entries);
      // A segment the store holds all of is done with.
      if (segment.last === 0) await this.#files.rm(path);
      else this.#segments.push(segment);
    }
    this.#next = entries.length + 1;
    // Written now: what open() found stays known, and an unwritable directory fails here.
    try {
      await this.#writeMarks();
    } catch (error) {
      throw journalDirectoryError(error, this.#directory);
    }
    return entries;
  }

  /** A segment read back: its entries past `appliedBytes` join `entries` (and get positions). */
  #keep(
    path: string,
    sequence: number,
    read: ReadSegment,
    mark: SegmentMark | undefined,
    entries: JournalEntry[],
  ): Segment {
    const segment: Segment = {
      path,
      sequence,
      frames: [],
      last: 0,
      appliedBytes: mark?.appliedBytes ?? 0,
      // The marks as they were: a damage found now is found again by a start before it is gone.
      bytes: mark?.syncedBytes ?? read.bytes,
      entries: mark?.syncedEntries ?? read.entries,
    };
    for (const frame of read.frames) {
      if (frame.end <= segment.appliedBytes) continue;
      entries.push(...frame.entries);
      segment.last = entries.length;
      segment.frames.push({ last: entries.length, end: frame.end });
    }
    return segment;
  }

  append(entries: readonly JournalEntry[]): Promise<number> {
    if (!this.#opened || this.#closed) {
      return Promise.reject(new Error("FileWriteJournal: append() needs an open journal"));
    }
    const buffers = entryFrame(entries);
    this.#next += entries.length;
    const last = this.#next - 1;
    return new Promise((resolve, reject) => {
      this.#group.push({ buffers, count: entries.length, last, resolve, reject });
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
    for (const segment of [...this.#segments]) {
      while ((segment.frames[0]?.last ?? Infinity) <= this.#discarded) {
        segment.appliedBytes = (segment.frames.shift() as { end: number }).end;
      }
      if (segment === current || segment.last > this.#discarded) continue;
      this.#segments.splice(this.#segments.indexOf(segment), 1);
      await this.#files.rm(segment.path);
    }
    this.#scheduleMarks();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing;
    await this.#closeSegment(true);
    await this.discardThrough(this.#discarded);
    clearTimeout(this.#marksTimer);
    this.#marksTimer = undefined;
    await this.#writeMarks().catch(() => undefined);
  }

  /** Writes the queued frames, one group (one write + one sync) at a time. */
  async #writeGroups(): Promise<void> {
    while (this.#group.length > 0) {
      const group = this.#group;
      this.#group = [];
      const buffers = group.flatMap((a) => a.buffers);
      const bytes = buffers.reduce((sum, b) => sum + b.length, 0);
      let segment: Segment | undefined;
      try {
        segment = await this.#segmentFor();
        await writeAll(this.#handle as JournalFile, buffers, bytes);
        await (this.#handle as JournalFile).datasync();
      } catch (error) {
        await this.#recoverFromFailedWrite(segment);
        for (const append of group) append.reject(journalWriteError(error, this.#directory));
        continue;
      }
      let end = segment.bytes;
      for (const append of group) {
        end += append.buffers.reduce((sum, b) => sum + b.length, 0);
        segment.frames.push({ last: append.last, end });
        segment.entries += append.count;
      }
      segment.bytes = end;
      segment.last = (group.at(-1) as Append).last;
      for (const append of group) append.resolve(append.last);
      this.#scheduleMarks();
    }
  }

  /**
   * After a failed write (a full disk): cuts what it may have left past the last synced frame, so
   * the segment ends clean and takes the next write; a segment that cannot be cut is closed (its
   * partial frame then ends it) and the next write starts a new one.
   */
  async #recoverFromFailedWrite(segment: Segment | undefined): Promise<void> {
    const handle = this.#handle;
    if (handle === undefined || segment === undefined) return;
    try {
      await handle.truncate(segment.bytes);
      await handle.datasync();
    } catch {
      await this.#closeSegment(false);
    }
  }

  /** The open segment, after starting a new one when it is full or holds only discarded entries. */
  async #segmentFor(): Promise<Segment> {
    const current = this.#segments.at(-1);
    if (this.#handle !== undefined && current !== undefined) {
      const drained = current.last <= this.#discarded;
      if (current.bytes < this.#maxSegmentBytes && !drained) return current;
      await this.#closeSegment(!drained);
      if (drained) await this.discardThrough(this.#discarded);
    }
    this.#sequence += 1;
    const name = `journal-${String(this.#sequence).padStart(12, "0")}.wal`;
    const path = join(this.#directory, name);
    const segment: Segment = {
      path,
      sequence: this.#sequence,
      frames: [],
      last: 0,
      appliedBytes: 0,
      bytes: 0,
      entries: 0,
    };
    this.#handle = await this.#files.open(path, "a");
    this.#segments.push(segment);
    await this.#files.syncDirectory(this.#directory);
    return segment;
  }

  /** Closes the open segment, first ending it with its footer when `seal` (best effort). */
  async #closeSegment(seal: boolean): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle === undefined) return;
    const segment = this.#segments.at(-1);
    if (seal && segment !== undefined && segment.entries > 0) {
      try {
        const footer = footerFrame({ entries: segment.entries, bytes: segment.bytes });
        const bytes = footer.reduce((sum, b) => sum + b.length, 0);
        await writeAll(handle, footer, bytes);
        await handle.datasync();
        segment.bytes += bytes;
      } catch {
        // Without its footer the segment still reads; its marks say how far it was synced.
      }
    }
    await handle.close().catch(() => undefined);
  }

  /** Rewrites the marks file within `markIntervalMs` (one pending rewrite at a time). */
  #scheduleMarks(): void {
    if (this.#marksTimer !== undefined || this.#closed) return;
    this.#marksTimer = setTimeout(() => {
      this.#marksTimer = undefined;
      // A marks file that cannot be written only costs the next start a longer replay.
      this.#writeMarks().catch(() => undefined);
    }, this.#markIntervalMs);
    this.#marksTimer.unref();
  }

  #writeMarks(): Promise<void> {
    const segments: Record<string, SegmentMark> = {};
    for (const s of this.#segments) {
      segments[String(s.sequence)] = {
        appliedBytes: s.appliedBytes,
        syncedBytes: s.bytes,
        syncedEntries: s.entries,
      };
    }
    const text = JSON.stringify({ lastSequence: this.#sequence, segments } satisfies Marks);
    const write = async (): Promise<void> => {
      const path = join(this.#directory, JOURNAL_MARKS_FILE);
      const temporary = `${path}.tmp`;
      const handle = await this.#files.open(temporary, "w");
      try {
        const bytes = Buffer.from(text, "utf8");
        await writeAll(handle, [bytes], bytes.length);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await this.#files.rename(temporary, path);
    };
    this.#marksWrite = this.#marksWrite.catch(() => undefined).then(write);
    return this.#marksWrite;
  }

  async #readMarks(): Promise<Marks> {
    let text: string;
    try {
      text = (await this.#files.readFile(join(this.#directory, JOURNAL_MARKS_FILE))).toString();
    } catch {
      return { lastSequence: 0, segments: {} };
    }
    try {
      const marks = JSON.parse(text) as Marks;
      if (typeof marks.lastSequence === "number" && typeof marks.segments === "object") {
        return marks;
      }
    } catch {
      // Reported below.
    }
    this.#warn(
      `write journal ${this.#directory}: ${JOURNAL_MARKS_FILE} cannot be read; every segment is replayed in full`,
    );
    return { lastSequence: 0, segments: {} };
  }
}

/** Writes every buffer (in as few `writev` calls as the kernel allows). */
async function writeAll(handle: JournalFile, buffers: Buffer[], total: number): Promise<void> {
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
