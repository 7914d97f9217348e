/**
 * Options of {@link createBatchedWriter}.
 *
 * @example
 * const options: BatchedWriterOptions = { sink: (text) => process.stderr.write(text), maxDelayMs: 50 };
 */
export interface BatchedWriterOptions {
  /** Where the collected text goes, in one call per batch. */
  readonly sink: (text: string) => void;
  /** Text collected before a batch is written at once (default 64 KiB). */
  readonly maxChars?: number;
  /** Longest a line waits for its batch, in ms (default 50). */
  readonly maxDelayMs?: number;
}

/** A writer that collects lines and hands them to its sink in batches. */
export interface BatchedWriter {
  /** Adds text (a whole line, with its `\n`). */
  write(text: string): void;
  /** Writes what is collected now (call it on exit). */
  flush(): void;
}

/**
 * Collects log lines and writes them to `sink` in batches: when `maxChars` are collected, or
 * `maxDelayMs` after the first line of a batch (an unref'd timer, so it keeps no process alive).
 * One line per tool call written with a `write` each cost the server a system call per request
 * (stderr to a pipe is synchronous), which the CPU profile of `sqlsvc-mcp` under load put at a
 * quarter of its busy time on the cheapest tool; batched, the call is shared by every line of
 * the batch. Lines keep their order. Whoever owns the process flushes on exit, so only a hard
 * kill loses the lines of the last `maxDelayMs`.
 *
 * @example
 * const out = createBatchedWriter({ sink: (text) => process.stderr.write(text) });
 * process.once("exit", () => out.flush());
 * const logger = createJsonLogger({ write: out.write });
 */
export function createBatchedWriter(options: BatchedWriterOptions): BatchedWriter {
  const maxChars = options.maxChars ?? 64 * 1024;
  const maxDelayMs = options.maxDelayMs ?? 50;
  let pending: string[] = [];
  let chars = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const text = pending.length === 1 ? (pending[0] as string) : pending.join("");
    pending = [];
    chars = 0;
    options.sink(text);
  };
  return {
    write(text) {
      pending.push(text);
      chars += text.length;
      if (chars >= maxChars) {
        flush();
        return;
      }
      if (timer === undefined) {
        timer = setTimeout(flush, maxDelayMs);
        timer.unref();
      }
    },
    flush,
  };
}
