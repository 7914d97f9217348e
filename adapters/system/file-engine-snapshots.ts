import { readFile } from "node:fs/promises";
import { crc32 } from "node:zlib";
import { replaceFileDurably } from "./sync-directory.js";
import type { EngineSnapshot, EngineSnapshots, Metadata, VectorRecord } from "../../core/index.js";

const MAGIC = Buffer.from("MEMSNAP1", "latin1");
/** Bytes of the header-length field after the magic. */
const LENGTH_BYTES = 4;

interface Header {
  readonly mark: string;
  readonly count: number;
  readonly dimensions: number;
  readonly recordsBytes: number;
  readonly vectorsBytes: number;
  readonly crc32: number;
}

type RecordRow = [id: string, document: string, metadata: Metadata];

/** Options of {@link FileEngineSnapshots}. */
export interface FileEngineSnapshotsOptions {
  /** Told why an existing snapshot file was not used (it is then treated as absent). */
  readonly warn?: (message: string) => void;
}

/**
 * {@link EngineSnapshots} in one file: a magic, a JSON header (mark, counts, sizes, CRC-32), the
 * records' ids, contents and metadata as JSON, then the vectors as little-endian float32. Saved to
 * a temporary file, synced, then renamed over the old one (a crash mid-save leaves the old file
 * or the new one, never half of one); a file that fails any check (size, CRC, JSON) is reported
 * through `warn` and counts as no snapshot.
 *
 * @example
 * const snapshots = new FileEngineSnapshots(join(dataDir, "engine.snapshot"), { warn });
 * const service = new MemoryService({ store, embedder, clock, snapshots });
 */
export class FileEngineSnapshots implements EngineSnapshots {
  readonly #path: string;
  readonly #warn: (message: string) => void;

  constructor(path: string, options: FileEngineSnapshotsOptions = {}) {
    this.#path = path;
    this.#warn = options.warn ?? (() => undefined);
  }

  async load(): Promise<EngineSnapshot | undefined> {
    let file: Buffer;
    try {
      file = await readFile(this.#path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      this.#warn(`engine snapshot ${this.#path} unreadable: ${String(error)}`);
      return undefined;
    }
    try {
      return parseSnapshot(file);
    } catch (error) {
      this.#warn(
        `engine snapshot ${this.#path} ignored: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }

  async save(mark: string, records: Iterable<VectorRecord>): Promise<void> {
    const rows: string[] = [];
    let dimensions = 0;
    let vectors = new Float32Array(0);
    let count = 0;
    for (const record of records) {
      if (count === 0) {
        dimensions = record.vector.length;
        vectors = new Float32Array(1024 * dimensions);
      }
      if (record.vector.length !== dimensions) {
        throw new Error(
          `engine snapshot: record ${record.id} has ${record.vector.length} dimensions, expected ${dimensions}`,
        );
      }
      if ((count + 1) * dimensions > vectors.length) {
        const grown = new Float32Array(vectors.length * 2);
        grown.set(vectors);
        vectors = grown;
      }
      vectors.set(record.vector, count * dimensions);
      rows.push(JSON.stringify([record.id, record.document, record.metadata] satisfies RecordRow));
      count += 1;
    }
    const body = Buffer.from(`[${rows.join(",")}]`, "utf8");
    const vectorBytes = littleEndianFloats(vectors.subarray(0, count * dimensions));
    const header: Header = {
      mark,
      count,
      dimensions,
      recordsBytes: body.length,
      vectorsBytes: vectorBytes.length,
      crc32: checksum(body, vectorBytes),
    };
    const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
    const length = Buffer.alloc(LENGTH_BYTES);
    length.writeUInt32LE(headerBytes.length);

    await replaceFileDurably(this.#path, (handle) =>
      handle.writev([MAGIC, length, headerBytes, body, vectorBytes]),
    );
  }
}

function parseSnapshot(file: Buffer): EngineSnapshot {
  const start = MAGIC.length + LENGTH_BYTES;
  if (file.length < start || !file.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new Error("not a snapshot file (bad magic)");
  }
  const headerLength = file.readUInt32LE(MAGIC.length);
  if (start + headerLength > file.length) throw new Error("truncated header");
  const header = JSON.parse(file.toString("utf8", start, start + headerLength)) as Header;
  const { mark, count, dimensions, recordsBytes, vectorsBytes } = header;
  const bodyAt = start + headerLength;
  if (
    typeof mark !== "string" ||
    ![count, dimensions, recordsBytes, vectorsBytes].every((n) => Number.isInteger(n) && n >= 0) ||
    vectorsBytes !== count * dimensions * 4 ||
    bodyAt + recordsBytes + vectorsBytes !== file.length
  ) {
    throw new Error("sizes do not match the file (torn or foreign file)");
  }
  const body = file.subarray(bodyAt, bodyAt + recordsBytes);
  const vectorBytes = file.subarray(bodyAt + recordsBytes);
  if (checksum(body, vectorBytes) !== header.crc32) throw new Error("CRC-32 mismatch");
  const rows = JSON.parse(body.toString("utf8")) as RecordRow[];
  if (!Array.isArray(rows) || rows.length !== count) throw new Error("record count mismatch");
  const vectors = readLittleEndianFloats(vectorBytes);
  return {
    mark,
    count,
    *pages(pageSize: number) {
      for (let first = 0; first < count; first += pageSize) {
        const page: VectorRecord[] = [];
        for (let i = first; i < Math.min(count, first + pageSize); i += 1) {
          const [id, document, metadata] = rows[i] as RecordRow;
          const vector = Array.from(vectors.subarray(i * dimensions, (i + 1) * dimensions));
          page.push({ id, document, metadata, vector });
        }
        yield page;
      }
    },
  };
}

/**
 * CRC-32 of the records then the vectors. (Node's `crc32(data, value)` returns 0 for a
 * zero-length view of an empty ArrayBuffer whatever `value` is, hence the guard.)
 */
function checksum(body: Buffer, vectors: Buffer): number {
  return vectors.length === 0 ? crc32(body) : crc32(vectors, crc32(body));
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function littleEndianFloats(values: Float32Array): Buffer {
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return LITTLE_ENDIAN ? bytes : Buffer.from(bytes).swap32();
}

function readLittleEndianFloats(bytes: Buffer): Float32Array {
  // A copy into a fresh, aligned buffer: the file's bytes are not 4-byte aligned at this offset.
  const copy = new Uint8Array(bytes);
  if (!LITTLE_ENDIAN) Buffer.from(copy.buffer).swap32();
  return new Float32Array(copy.buffer);
}
