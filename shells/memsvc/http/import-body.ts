/** Why an import stopped before the end of its body. */
export type ImportStop = "line_limit" | "size_limit" | "time_limit";

/** The limits of one import request. */
export interface ImportLimits {
  /** Body bytes read at most; the import stops at the last whole line within them. */
  readonly maxBytes: number;
  /** Lines (blank ones included, as line numbers count them) handed on at most. */
  readonly maxLines: number;
  /** The longest line: a line past it is handed on as it comes (the reader skips it). */
  readonly maxLineBytes: number;
  /** True once the import should stop taking lines (checked as each chunk arrives). */
  readonly timeIsUp: () => boolean;
}

const NEWLINE = 0x0a;

/**
 * An import body cut to its limits, always at a line boundary, so that an answer can say exactly
 * which lines were handled: every line up to {@link ImportBody.linesPassed} reached the import
 * (stored, merged or rejected), none after it did. What it reads of the source beyond the last
 * whole line it passed on (part of a line) is held back and dropped at a stop, so a client that
 * resumes after `linesPassed` sends that line again, whole (issue 26: an import cut by Node's
 * request timeout answered 408 while 409,413 lines had been stored).
 *
 * Costs a byte compare per byte (the newline count) beyond the source's own.
 *
 * @example
 * const body = new ImportBody(chunks, { maxBytes, maxLines, maxLineBytes, timeIsUp });
 * const result = await memory.importMemories(ndjsonLines(body, maxLineBytes));
 * if (body.stopped !== undefined) console.log(`stored through line ${body.linesPassed}`);
 */
export class ImportBody implements AsyncIterable<Uint8Array> {
  /** Whole lines handed on so far (and, at the end, the last line if it has no newline). */
  linesPassed = 0;
  /** Why it stopped before the end of the body, or undefined. */
  stopped: ImportStop | undefined;

  readonly #source: AsyncIterable<Uint8Array>;
  readonly #limits: ImportLimits;

  constructor(source: AsyncIterable<Uint8Array>, limits: ImportLimits) {
    this.#source = source;
    this.#limits = limits;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const { maxBytes, maxLines, maxLineBytes, timeIsUp } = this.#limits;
    const iterator = this.#source[Symbol.asyncIterator]();
    /** The start of a line not yet whole, held back. */
    let held: Uint8Array[] = [];
    let heldBytes = 0;
    /** A line over the limit is passed on as it comes: no stop until its end. */
    let passingLongLine = false;
    let received = 0;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        // Checked with a chunk in hand: a body that ended meanwhile is complete.
        if (!passingLongLine && timeIsUp()) {
          this.stopped = "time_limit";
          return;
        }
        let chunk = next.value;
        received += chunk.length;
        const overSize = received > maxBytes;
        if (overSize) chunk = chunk.subarray(0, chunk.length - (received - maxBytes));
        // The end of the last whole line in the chunk, and whether the line limit cuts it there.
        let end = -1;
        let cut = false;
        for (let i = 0; i < chunk.length; i += 1) {
          if (chunk[i] !== NEWLINE) continue;
          end = i + 1;
          this.linesPassed += 1;
          if (this.linesPassed >= maxLines) {
            cut = true;
            break;
          }
        }
        if (end === -1) {
          if (passingLongLine) {
            yield chunk;
          } else {
            held.push(chunk);
            heldBytes += chunk.length;
            if (heldBytes > maxLineBytes) {
              passingLongLine = true;
              yield* held;
              held = [];
              heldBytes = 0;
            }
          }
        } else {
          yield* held;
          held = [];
          heldBytes = 0;
          passingLongLine = false;
          yield chunk.subarray(0, end);
          if (!cut && end < chunk.length) {
            held.push(chunk.subarray(end));
            heldBytes = chunk.length - end;
          }
        }
        if (cut) {
          if (end < chunk.length || !(await ended(iterator))) this.stopped = "line_limit";
          return;
        }
        if (overSize) {
          // A long line cut by the size: the reader reports it as too long; it counts as handled.
          if (passingLongLine) this.linesPassed += 1;
          this.stopped = "size_limit";
          return;
        }
      }
      // The end of the body: the last line, without its newline, is whole too.
      if (heldBytes > 0 || passingLongLine) {
        this.linesPassed += 1;
        yield* held;
      }
    } finally {
      await iterator.return?.();
    }
  }
}

/** Whether the source has nothing more (reads one chunk to know; the caller stops anyway). */
async function ended(iterator: AsyncIterator<Uint8Array>): Promise<boolean> {
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return true;
    if (next.value.length > 0) return false;
  }
}
