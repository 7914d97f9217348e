import { mkdir, open, readdir, rm, stat, type FileHandle } from "node:fs/promises";
import { isAscii } from "node:buffer";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { replaceFileDurably } from "./sync-directory.js";
import type {
  ReplicaSnapshot,
  ReplicaSnapshots,
  SavedReplicaSnapshot,
  SnapshotArrayPlacer,
} from "../../core/index.js";

/** The file's first and last 8 bytes. */
const MAGIC = Buffer.from("MEMREPL1", "latin1");
/** Bumped whenever the layout of the file or of an engine image changes. */
export const REPLICA_SNAPSHOT_FORMAT = 1;
/** The snapshot's file name in its directory. */
export const REPLICA_SNAPSHOT_FILE = "replica-engines.snapshot";
/** String arrays at least this long get a section of their own (shorter ones stay in the JSON). */
const STRING_SECTION_MIN = 64;
/** A temporary file older than this is a save that was killed (see `#removeStaleTemporaries`). */
const STALE_TEMPORARY_MS = 3_600_000;
/** Bytes of strings encoded (into one reused buffer) per write. */
const STRING_STAGE_BYTES = 1 << 20;

const TYPED = {
  Int8Array,
  Uint8Array,
  Uint16Array,
  Int32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

/** A long string array being saved, with the UTF-8 length of each string. */
interface StringsPart {
  readonly strings: readonly string[];
  readonly lengths: Uint32Array<ArrayBuffer>;
}

/** One section of the body: a typed array's bytes, or strings (their UTF-8 lengths, then them). */
type Section =
  | { readonly kind: "typed"; readonly type: TypedName; readonly bytes: number }
  | { readonly kind: "strings"; readonly count: number; readonly bytes: number };

interface Trailer {
  readonly format: number;
  readonly storeId: string;
  readonly sections: readonly Section[];
  readonly crc32: number;
  /** The snapshot, with `{ $section: i }` in place of each typed array and long string array. */
  readonly tree: unknown;
}

/** Options of {@link FileReplicaSnapshots}. */
export interface FileReplicaSnapshotsOptions {
  /**
   * Names what the snapshot's records were read from and how (e.g. the store's schema version):
   * a file saved under another id is not used.
   */
  readonly storeId: string;
  /** Told why an existing snapshot file was not used (it then counts as absent). */
  readonly warn?: (message: string) => void;
}

/**
 * {@link ReplicaSnapshots} in one file of a directory: a magic, every typed array of the engine
 * images as raw little-endian bytes and every long string array as UTF-8, then a JSON trailer
 * (format, store id, section sizes, CRC-32 of the body, and the snapshot's structure), its length
 * and the magic again. Saved through a temporary file that is synced and renamed over the old
 * one (a crash leaves the old snapshot or the new one); read section by section, so the whole
 * file is never in memory at once. A file that fails any check counts as no snapshot.
 *
 * @example
 * const snapshots = new FileReplicaSnapshots("/var/lib/memsvc", { storeId: "postgres schema 3", warn });
 */
export class FileReplicaSnapshots implements ReplicaSnapshots {
  readonly #dir: string;
  readonly #path: string;
  readonly #options: FileReplicaSnapshotsOptions;

  constructor(dir: string, options: FileReplicaSnapshotsOptions) {
    this.#dir = dir;
    this.#path = join(dir, REPLICA_SNAPSHOT_FILE);
    this.#options = options;
  }

  async load(): Promise<SavedReplicaSnapshot | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.#path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      this.#options.warn?.(`engine snapshot ${this.#path} unreadable: ${String(error)}`);
      return undefined;
    }
    try {
      const trailer = await this.#trailer(handle);
      const { seq, stamp, space } = trailer.tree as ReplicaSnapshot;
      if (typeof seq !== "number" || typeof stamp !== "string" || typeof space !== "object") {
        throw new Error("no seq, stamp or vector space in its trailer");
      }
      return { seq, stamp, space, tenants: (place) => this.#tenants(trailer, place) };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.#options.warn?.(`engine snapshot ${this.#path} ignored: ${why}`);
      return undefined;
    } finally {
      await handle.close();
    }
  }

  /**
   * Why a save could not write here now, or `undefined`: makes the directory if missing, then
   * creates and removes a file in it. Called at start, so an unwritable directory is told then,
   * not only at shutdown once the engines were built (and every start would read the whole store).
   *
   * @example
   * const problem = await snapshots.unwritable(); // e.g. Error: EACCES: permission denied, …
   */
  async unwritable(): Promise<unknown> {
    const probe = join(this.#dir, `${REPLICA_SNAPSHOT_FILE}.${process.pid}.probe.tmp`);
    try {
      await mkdir(this.#dir, { recursive: true });
      await (await open(probe, "w", 0o600)).close();
      await rm(probe, { force: true });
      return undefined;
    } catch (error) {
      return error ?? new Error("unknown error");
    }
  }

  async save(snapshot: ReplicaSnapshot): Promise<void> {
    if (!LITTLE_ENDIAN) throw new Error("engine snapshots need a little-endian machine");
    await mkdir(this.#dir, { recursive: true });
    await this.#removeStaleTemporaries();
    const sections: Section[] = [];
    const parts: (Typed | StringsPart)[] = [];
    const tree = JSON.stringify(snapshot, (_key, value: unknown) => {
      if (ArrayBuffer.isView(value)) {
        const type = value.constructor.name as TypedName;
        if (!(type in TYPED)) throw new Error(`engine snapshot: cannot save a ${type}`);
        sections.push({ kind: "typed", type, bytes: value.byteLength });
        parts.push(value as Typed);
        return { $section: sections.length - 1 };
      }
      if (typeof value === "number" && !Number.isFinite(value)) return { $number: String(value) };
      if (isLongStringArray(value)) {
        const lengths = new Uint32Array(value.length);
        let bytes = value.length * 4;
        for (let i = 0; i < value.length; i += 1) {
          bytes += lengths[i] = Buffer.byteLength(value[i] as string, "utf8");
        }
        sections.push({ kind: "strings", count: value.length, bytes });
        parts.push({ strings: value, lengths });
        return { $section: sections.length - 1 };
      }
      return value;
    });
    await replaceFileDurably(this.#path, async (handle) => {
      let crc = 0;
      const write = async (bytes: Uint8Array) => {
        crc = updateCrc(bytes, crc);
        await writeAll(handle, bytes);
      };
      await writeAll(handle, MAGIC);
      const stage = Buffer.allocUnsafeSlow(STRING_STAGE_BYTES);
      for (const part of parts) {
        if (ArrayBuffer.isView(part)) {
          await write(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
          continue;
        }
        const { strings, lengths } = part;
        await write(new Uint8Array(lengths.buffer));
        // Encoded string by string into one reused buffer: no joined string, no new buffers.
        let used = 0;
        for (let i = 0; i < strings.length; i += 1) {
          const bytes = lengths[i] as number;
          if (used + bytes > stage.length && used > 0) {
            await write(stage.subarray(0, used));
            used = 0;
          }
          if (bytes > stage.length) await write(Buffer.from(strings[i] as string, "utf8"));
          else used += stage.write(strings[i] as string, used, bytes, "utf8");
        }
        if (used > 0) await write(stage.subarray(0, used));
      }
      const fields: Omit<Trailer, "tree"> = {
        format: REPLICA_SNAPSHOT_FORMAT,
        storeId: this.#options.storeId,
        sections,
        crc32: crc,
      };
      const json = Buffer.from(`${JSON.stringify(fields).slice(0, -1)},"tree":${tree}}`, "utf8");
      const length = Buffer.alloc(4);
      length.writeUInt32LE(json.length);
      await writeAll(handle, Buffer.concat([json, length, MAGIC]));
    });
  }

  /**
   * Removes temporary files of saves that a kill cut short (over an hour old: another replica
   * sharing the directory may be saving now).
   */
  async #removeStaleTemporaries(): Promise<void> {
    const prefix = `${REPLICA_SNAPSHOT_FILE}.`;
    for (const name of await readdir(this.#dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
      const path = join(this.#dir, name);
      const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
      if (Date.now() - mtimeMs > STALE_TEMPORARY_MS) await rm(path, { force: true });
    }
  }

  /** The trailer, checked against the file's size, this format and this store. */
  async #trailer(handle: FileHandle): Promise<Trailer> {
    if (!LITTLE_ENDIAN) throw new Error("engine snapshots need a little-endian machine");
    const { size } = await handle.stat();
    const end = await readAt(handle, size - 12, 12);
    const head = await readAt(handle, 0, MAGIC.length);
    if (!head.equals(MAGIC) || !end.subarray(4).equals(MAGIC)) {
      throw new Error("not a snapshot file, or a torn one (bad magic)");
    }
    const trailerBytes = end.readUInt32LE(0);
    const trailerAt = size - 12 - trailerBytes;
    if (trailerAt < MAGIC.length) throw new Error("torn file (trailer length)");
    const trailer = JSON.parse(
      (await readAt(handle, trailerAt, trailerBytes)).toString("utf8"),
    ) as Trailer;
    if (trailer.format !== REPLICA_SNAPSHOT_FORMAT) {
      throw new Error(`format ${trailer.format}, this release reads ${REPLICA_SNAPSHOT_FORMAT}`);
    }
    if (trailer.storeId !== this.#options.storeId) {
      throw new Error(`saved from ${trailer.storeId}, this store is ${this.#options.storeId}`);
    }
    const body = trailer.sections.reduce((sum, section) => sum + section.bytes, 0);
    if (MAGIC.length + body !== trailerAt) throw new Error("section sizes do not match the file");
    return trailer;
  }

  /**
   * The engines: every section read (one at a time, a typed one into what `place` gives for it)
   * and checked against the CRC-32.
   */
  async #tenants(
    trailer: Trailer,
    place?: SnapshotArrayPlacer,
  ): Promise<ReplicaSnapshot["tenants"]> {
    const handle = await open(this.#path, "r");
    try {
      const paths = place === undefined ? [] : sectionPaths((trailer.tree as Tree).tenants);
      let at = MAGIC.length;
      let crc = 0;
      const values: unknown[] = [];
      for (const [i, section] of trailer.sections.entries()) {
        const path = paths[i];
        const placed =
          section.kind === "typed" && path !== undefined && place !== undefined
            ? placedArray(section, place(path, section.type, elementsOf(section)))
            : undefined;
        const bytes =
          placed === undefined
            ? new Uint8Array(section.bytes)
            : new Uint8Array(placed.buffer, placed.byteOffset, placed.byteLength);
        await readInto(handle, at, bytes);
        at += section.bytes;
        crc = updateCrc(bytes, crc);
        values.push(
          placed ??
            (section.kind === "typed"
              ? typedOf(section.type, bytes)
              : stringsOf(bytes, section.count)),
        );
      }
      if (crc !== trailer.crc32) throw new Error(`engine snapshot ${this.#path}: CRC-32 mismatch`);
      const tenants = (trailer.tree as { tenants: unknown }).tenants;
      return JSON.parse(JSON.stringify(tenants), (_key, value: unknown) => {
        if (typeof value === "object" && value !== null && "$section" in value) {
          return values[(value as { $section: number }).$section];
        }
        if (typeof value === "object" && value !== null && "$number" in value) {
          return Number((value as { $number: string }).$number);
        }
        return value;
      }) as ReplicaSnapshot["tenants"];
    } finally {
      await handle.close();
    }
  }
}

/**
 * CRC-32 of `bytes` continuing from `crc`. (Node's `crc32(data, value)` returns 0 for a
 * zero-length view of an empty ArrayBuffer whatever `value` is, hence the guard.)
 */
function updateCrc(bytes: Uint8Array, crc: number): number {
  return bytes.byteLength === 0 ? crc : crc32(bytes, crc);
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function isLongStringArray(value: unknown): value is readonly string[] {
  return (
    Array.isArray(value) &&
    value.length >= STRING_SECTION_MIN &&
    value.every((item) => typeof item === "string")
  );
}

interface Tree {
  readonly tenants: unknown;
}

/** The path (keys from the tenants array down) of each `{ $section: i }` of a tree, by i. */
function sectionPaths(tree: unknown): string[][] {
  const paths: string[][] = [];
  const walk = (value: unknown, path: string[]) => {
    if (typeof value !== "object" || value === null) return;
    if ("$section" in value) {
      paths[(value as { $section: number }).$section] = path;
      return;
    }
    for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
  };
  walk(tree, []);
  return paths;
}

function elementsOf(section: Section & { kind: "typed" }): number {
  return section.bytes / (TYPED[section.type]?.BYTES_PER_ELEMENT ?? 1);
}

/** What a placer gave, when it is an array of the section's type and size. */
function placedArray(
  section: Section & { kind: "typed" },
  given: ArrayBufferView | undefined,
): Typed | undefined {
  if (given === undefined) return undefined;
  if (!(given instanceof TYPED[section.type]) || given.byteLength !== section.bytes) {
    throw new Error(`engine snapshot: a placed array is not a ${section.type} of its size`);
  }
  return given as Typed;
}

function typedOf(type: TypedName, bytes: Uint8Array<ArrayBuffer>): Typed {
  const Type = TYPED[type];
  if (!(type in TYPED) || bytes.byteLength % Type.BYTES_PER_ELEMENT !== 0) {
    throw new Error(`bad section of ${type}`);
  }
  return new Type(bytes.buffer, 0, bytes.byteLength / Type.BYTES_PER_ELEMENT);
}

function stringsOf(bytes: Uint8Array<ArrayBuffer>, count: number): string[] {
  const lengths = new Uint32Array(bytes.buffer, 0, count);
  const blob = Buffer.from(bytes.buffer, count * 4);
  const encoding = isAscii(blob) ? "latin1" : "utf8";
  const strings = new Array<string>(count);
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    const next = at + (lengths[i] as number);
    if (next > blob.length) throw new Error("string section overruns its bytes");
    strings[i] = blob.toString(encoding, at, next);
    at = next;
  }
  if (at !== blob.length) throw new Error("string section size mismatch");
  return strings;
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done);
    done += bytesWritten;
  }
}

async function readInto(handle: FileHandle, position: number, into: Uint8Array): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await handle.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new Error("truncated file");
    done += bytesRead;
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  if (position < 0 || length < 0) throw new Error("truncated file");
  const bytes = Buffer.alloc(length);
  await readInto(handle, position, bytes);
  return bytes;
}
