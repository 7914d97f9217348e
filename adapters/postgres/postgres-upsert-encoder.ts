import type { VectorRecord } from "../../core/ports/vector-store.js";

/** One upsert statement's parameter: the records' vectors, then their JSON text. */
export interface EncodedUpsert {
  /** Valid until the encoder's next `encode` (a view of the encoder's own buffer). */
  readonly bytes: Buffer;
  /** 1-based position of the JSON text in `bytes` (the vectors end just before it). */
  readonly jsonStart: number;
}

/** Smallest buffer an encoder keeps; it grows to the largest upsert it encoded. */
const INITIAL_BYTES = 64 * 1024;
/** Most bytes a UTF-16 code unit takes in UTF-8. */
const UTF8_PER_UNIT = 3;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Encodes a group commit's upsert as ONE binary parameter, into a buffer it keeps: the vectors
 * first (float32, little-endian, one after another, as `encodeVectors` lays them out), then the
 * records as a JSON array of `[id, document, metadata, start, length]` (start 1-based and length
 * in bytes: where the record's vector is), each row stringified on its own and written straight
 * into the buffer. The statement cuts the vectors with `substring` and reads the JSON with
 * `convert_from(substring($1 FROM jsonStart), 'UTF8')::jsonb`.
 *
 * Why: a batch of 1,000 memories was a 630 KB JSON string (V8's large-object space: fresh pages
 * for every batch), a 400 KB `Float32Array`, and node-postgres's bind buffer grown twice around
 * them (~2 MB of fresh memory per batch). Fresh pages cost ~30 µs each to touch on this machine
 * kind (measured: first touch of a new 64 MB buffer). Now the encoding reuses its buffer and the
 * driver copies one parameter (one growth of its bind buffer).
 *
 * Not shared: the buffer is reused by the next `encode`, so its owner (one `GroupCommit`) must have
 * handed the previous statement to the driver first (its writes are sent one commit at a time).
 *
 * @example
 * const encoder = new UpsertEncoder();
 * const { bytes, jsonStart } = encoder.encode(records);
 * await client.query(UPSERT, [bytes, jsonStart]);
 */
export class UpsertEncoder {
  #buffer: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);

  encode(records: readonly VectorRecord[]): EncodedUpsert {
    let count = 0;
    for (const record of records) count += record.vector.length;
    const vectorBytes = count * 4;
    this.#reserve(0, vectorBytes + 2);
    let buffer = this.#buffer;
    // A float32 view of the buffer's start (its own ArrayBuffer: allocUnsafe pools only small
    // buffers), written as little-endian numbers on a little-endian machine.
    const floats =
      LITTLE_ENDIAN && buffer.byteOffset % 4 === 0
        ? new Float32Array(buffer.buffer, buffer.byteOffset, count)
        : undefined;
    let at = 0;
    for (const { vector } of records) {
      if (floats !== undefined) {
        const first = at / 4;
        for (let i = 0; i < vector.length; i += 1) floats[first + i] = vector[i] ?? 0;
        at += vector.length * 4;
        continue;
      }
      for (const x of vector) at = buffer.writeFloatLE(x, at);
    }
    const jsonStart = at + 1;
    buffer[at++] = 0x5b; // [
    let start = 1;
    for (const [i, record] of records.entries()) {
      const length = record.vector.length * 4;
      const row = JSON.stringify([record.id, record.document, record.metadata, start, length]);
      start += length;
      buffer = this.#reserve(at, row.length * UTF8_PER_UNIT + 2);
      if (i > 0) buffer[at++] = 0x2c; // ,
      at += buffer.write(row, at, "utf8");
    }
    buffer[at++] = 0x5d; // ]
    return { bytes: buffer.subarray(0, at), jsonStart };
  }

  /** The buffer, with room for `more` bytes after the first `used` (kept when it grows). */
  #reserve(used: number, more: number): Buffer {
    if (used + more > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.#buffer.length, used + more));
      this.#buffer.copy(grown, 0, 0, used);
      this.#buffer = grown;
    }
    return this.#buffer;
  }
}
