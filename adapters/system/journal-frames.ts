/**
 * The byte format of `FileWriteJournal`'s segment files, and reading one back.
 *
 * A frame is a 16-byte header (the magic `WJ2\xA5`, the payload's length, the payload's CRC-32,
 * and the CRC-32 of those first 12 bytes) followed by the payload, JSON: an array of entries, or
 * `{"end":{"entries":n,"bytes":b}}`, the footer a cleanly closed segment ends with. The magic and
 * the header's own CRC let a reader find the next frame after a damaged one, so one bad frame in
 * the middle of a segment costs that frame only. Segments written before this format (frames of
 * length and CRC only, no magic) are still read, up to their first bad frame.
 */
import { crc32 } from "node:zlib";
import type { JournalEntry } from "../../core/ports/write-journal.js";

const MAGIC = Buffer.from([0x57, 0x4a, 0x32, 0xa5]);
/** Bytes of a frame's header. */
export const FRAME_HEADER = 16;
/** Header of the frames of the first format: length and CRC-32. */
const V1_HEADER = 8;

/** What a cleanly closed segment ends with. */
export interface SegmentFooter {
  /** Entries in the segment. */
  readonly entries: number;
  /** Bytes of the frames before the footer. */
  readonly bytes: number;
}

/** A stretch of a segment that holds no readable frame. */
export interface DamagedStretch {
  /** Byte offset where it starts. */
  readonly at: number;
  readonly bytes: number;
  /** Nothing readable follows it (a torn or cut end), rather than a bad frame between good ones. */
  readonly tail: boolean;
  /** Entries read before it in the segment. */
  readonly entriesBefore: number;
}

/** A frame as read back: its entries and the byte after it. */
export interface ReadFrame {
  readonly end: number;
  readonly entries: readonly JournalEntry[];
}

/** A segment as read back. */
export interface ReadSegment {
  /** Its readable frames, oldest first (damaged ones are missing). */
  readonly frames: ReadFrame[];
  /** Entries in those frames. */
  readonly entries: number;
  /** Byte offset after the last readable frame (where a reader could append). */
  readonly bytes: number;
  readonly footer: SegmentFooter | undefined;
  readonly damage: DamagedStretch[];
}

/** One frame (header and payload) holding `entries`, as buffers to write. */
export function entryFrame(entries: readonly JournalEntry[]): Buffer[] {
  return frame(Buffer.from(JSON.stringify(entries.map(compactEntry)), "utf8"));
}

/** The footer frame of a segment closed after `bytes` bytes holding `entries` entries. */
export function footerFrame(footer: SegmentFooter): Buffer[] {
  return frame(Buffer.from(JSON.stringify({ end: footer }), "utf8"));
}

function frame(payload: Buffer): Buffer[] {
  const header = Buffer.allocUnsafe(FRAME_HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(payload.length, 4);
  header.writeUInt32LE(crc32(payload), 8);
  header.writeUInt32LE(crc32(header.subarray(0, 12)), 12);
  return [header, payload];
}

/** Reads a segment's frames, going on after a damaged one where a later frame is found. */
export function readSegment(file: Buffer): ReadSegment {
  // A segment of the first format has no magic (one of this format with its first bytes damaged
  // still has later frames that read).
  if (file.length >= 4 && !file.subarray(0, 4).equals(MAGIC) && nextFrame(file, 1) === undefined) {
    return readV1(file);
  }
  const frames: ReadFrame[] = [];
  let entries = 0;
  const damage: DamagedStretch[] = [];
  let footer: SegmentFooter | undefined;
  let bytes = 0;
  let at = 0;
  while (at < file.length) {
    const read = frameAt(file, at);
    if (read === undefined) {
      // No frame here: skip to the next one that reads, if any.
      const next = nextFrame(file, at + 1);
      const tail = next === undefined;
      const end = next ?? file.length;
      damage.push({ at, bytes: end - at, tail, entriesBefore: entries });
      at = end;
      continue;
    }
    if (read.payload === undefined) {
      // A sound header over a bad payload: exactly this frame is lost.
      const tail = read.end >= file.length || nextFrame(file, read.end) === undefined;
      damage.push({ at, bytes: read.end - at, tail, entriesBefore: entries });
      at = read.end;
      continue;
    }
    const parsed = JSON.parse(read.payload.toString("utf8")) as unknown;
    if (Array.isArray(parsed)) {
      const readEntries = (parsed as JournalEntry[]).map(expandEntry);
      frames.push({ end: read.end, entries: readEntries });
      entries += readEntries.length;
      bytes = read.end;
    } else {
      footer = (parsed as { end: SegmentFooter }).end;
    }
    at = read.end;
  }
  return { frames, entries, bytes, footer, damage };
}

/** The frame at `at`: undefined when no sound header is there; `payload` unset when it is bad. */
function frameAt(file: Buffer, at: number): { end: number; payload?: Buffer } | undefined {
  if (file.length - at < FRAME_HEADER) return undefined;
  if (!file.subarray(at, at + 4).equals(MAGIC)) return undefined;
  if (crc32(file.subarray(at, at + 12)) !== file.readUInt32LE(at + 12)) return undefined;
  const end = at + FRAME_HEADER + file.readUInt32LE(at + 4);
  if (end > file.length) return undefined;
  const payload = file.subarray(at + FRAME_HEADER, end);
  return crc32(payload) === file.readUInt32LE(at + 8) ? { end, payload } : { end };
}

/** Offset of the next frame from `from` on that has a sound header (its payload may be bad). */
function nextFrame(file: Buffer, from: number): number | undefined {
  for (let at = file.indexOf(MAGIC, from); at >= 0; at = file.indexOf(MAGIC, at + 1)) {
    if (frameAt(file, at) !== undefined) return at;
  }
  return undefined;
}

/** A segment of the first format: frames of length and CRC, read up to the first bad one. */
function readV1(file: Buffer): ReadSegment {
  const frames: ReadFrame[] = [];
  let entries = 0;
  let at = 0;
  while (at < file.length) {
    const end = file.length - at < V1_HEADER ? Infinity : at + V1_HEADER + file.readUInt32LE(at);
    const payload = end > file.length ? undefined : file.subarray(at + V1_HEADER, end);
    if (payload === undefined || crc32(payload) !== file.readUInt32LE(at + 4)) {
      const stretch = { at, bytes: file.length - at, tail: true, entriesBefore: entries };
      return { frames, entries, bytes: at, footer: undefined, damage: [stretch] };
    }
    const read = (JSON.parse(payload.toString("utf8")) as JournalEntry[]).map(expandEntry);
    frames.push({ end, entries: read });
    entries += read.length;
    at = end;
  }
  return { frames, entries, bytes: at, footer: undefined, damage: [] };
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
