import { open, type FileHandle } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import { fileErrorReason } from "../../../common/file-error.js";
import { printJson, type Run } from "./client-io.js";
import { optionText, UsageError } from "./client-run.js";
import { ClientError, EXIT } from "./memory-client.js";

/**
 * The `--file` of an import (`r`) or an export (`w`), opened before any byte moves; a file that
 * cannot be opened (missing, a directory, not allowed) is a usage error naming it, not a stack
 * trace nor "cannot reach the memory service".
 */
async function openFile(file: string, flags: "r" | "w"): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, flags);
  } catch (error) {
    throw new ClientError(`--file ${file}: ${fileProblem(error)}`, EXIT.usage);
  }
  // Opening a directory for reading succeeds; reading it fails later, mid-request.
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new ClientError(`--file ${file}: is a directory, expected an NDJSON file`, EXIT.usage);
  }
  return handle;
}

function fileProblem(error: unknown): string {
  return (error as NodeJS.ErrnoException).code === "EISDIR"
    ? "is a directory, expected an NDJSON file"
    : fileErrorReason(error);
}

/**
 * `memsvc export`: the service's NDJSON export to stdout, or to `--file F` with a running count on
 * a terminal.
 *
 * @example
 * await exportMemories({ client, values: { file: "backup.ndjson" }, arg: "", io });
 */
export async function exportMemories({ client, values, io }: Run): Promise<void> {
  const stream = await client.stream(
    values["vectors"] === true ? "/v1/export?vectors=true" : "/v1/export",
  );
  const file = optionText(values["file"]);
  // Opened once the service answered: an unreachable service leaves an older backup whole.
  let output: NodeJS.WritableStream = io.stdout;
  if (file !== undefined) {
    try {
      output = (await openFile(file, "w")).createWriteStream();
    } catch (error) {
      await stream.cancel();
      throw error;
    }
  }
  let lines = 0;
  let last = performance.now();
  const counted = Readable.fromWeb(stream as never).on("data", (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
    if (file !== undefined && io.stderr.isTTY === true && performance.now() - last > 500) {
      last = performance.now();
      io.stderr.write(`\rexported ${lines} memories…`);
    }
  });
  await pipeline(counted, output, {
    end: file !== undefined,
  });
  if (file !== undefined)
    io.stderr.write(
      `${io.stderr.isTTY === true ? "\r" : ""}exported ${lines} memories to ${file}\n`,
    );
}

/** The answer of `POST /v1/import`; `incomplete` when a limit of one request stopped it. */
interface ImportAnswer {
  imported: number;
  deduplicated: number;
  rejected: { line: number; error: string }[];
  incomplete?: { reason: string; stored_through_line: number; message: string };
}

/**
 * `memsvc import`: NDJSON from stdin or `--file F` to the service's import, with the lines sent
 * so far on a terminal; prints what landed, merged and was rejected (line numbers of the input).
 * The service takes at most 50,000 lines (256 MiB, 120 s) per request and says after which line
 * it stopped: a regular `--file` is then sent on from the next line, in as many requests as it
 * takes; stdin (or a pipe) cannot be read again, so the import says from which line to send the
 * rest and exits 1 instead of reporting success for a part.
 *
 * @example
 * await importMemories({ client, values: { file: "backup.ndjson" }, arg: "", io });
 */
export async function importMemories({ client, values, io }: Run): Promise<void> {
  const file = optionText(values["file"]);
  if (file === undefined && (io.stdin as { isTTY?: boolean }).isTTY === true) {
    throw new UsageError("import reads NDJSON from stdin or --file F; nothing is piped in");
  }
  const total: ImportAnswer = { imported: 0, deduplicated: 0, rejected: [] };
  const progress = { lines: 0, last: performance.now() };
  // Lines of the input the service already handled (imported, merged or rejected).
  let handled = 0;
  let busyWaits = 0;
  for (;;) {
    const handle = file === undefined ? undefined : await openFile(file, "r");
    const rereadable = handle !== undefined && (await handle.stat()).isFile();
    const input = handle === undefined ? (io.stdin as Readable) : handle.createReadStream();
    progress.lines = handled;
    let answer: ImportAnswer;
    try {
      answer = await client.postNdjson<ImportAnswer>(
        "/v1/import",
        withProgress(handled === 0 ? input : through(input, afterLines(handled)), progress, io),
      );
    } catch (error) {
      // A later request of the same file refused whole: say what landed before it.
      if (handled === 0 || !(error instanceof ClientError)) throw error;
      if (error.status === 503 && busyWaits < MAX_BUSY_WAITS) {
        busyWaits += 1;
        await delay(BUSY_WAIT_MS);
        continue;
      }
      throw new ClientError(
        `${error.message}; lines 1-${handled} were imported: send the lines from line ${handled + 1} on in another import, e.g. tail -n +${handled + 1} FILE | memsvc import`,
        error.exitCode,
        error.status,
      );
    }
    busyWaits = 0;
    total.imported += answer.imported;
    total.deduplicated += answer.deduplicated;
    for (const { line, error } of answer.rejected)
      total.rejected.push({ line: handled + line, error });
    const stop = answer.incomplete;
    if (stop === undefined || !rereadable || stop.stored_through_line < 1) {
      if (io.stderr.isTTY === true && progress.lines > 0) io.stderr.write("\r\x1b[K");
      report(
        io,
        values["json"] === true,
        stop === undefined ? total : { ...total, incomplete: stop },
      );
      if (stop === undefined) return;
      const from = handled + stop.stored_through_line + 1;
      const why = /\(([^)]*)\)/.exec(stop.message)?.[1] ?? stop.reason;
      throw new ClientError(
        `import stopped after line ${from - 1} (${why}): the lines from line ${from} on were not imported; send them in another import, e.g. tail -n +${from} FILE | memsvc import`,
        EXIT.failed,
      );
    }
    handled += stop.stored_through_line;
    // The embedded Chroma is still taking the earlier lines: give it a moment (docs: "resume a
    // few seconds later"), as an immediate request would be refused before storing anything.
    if (stop.reason === "store_busy") await delay(BUSY_WAIT_MS);
  }
}

/** How long `import --file` waits before sending the rest after a busy store stopped it. */
const BUSY_WAIT_MS = 2_000;
/** How many times in a row a busy store (503) may refuse the rest before the import gives up. */
const MAX_BUSY_WAITS = 30;

function report(io: Run["io"], json: boolean, answer: ImportAnswer): void {
  if (json) return printJson(io, answer);
  io.stdout.write(
    `imported ${answer.imported}, merged ${answer.deduplicated} duplicates, rejected ${answer.rejected.length}\n`,
  );
  for (const { line, error } of answer.rejected.slice(0, 20)) {
    io.stderr.write(`line ${line}: ${error}\n`);
  }
}

/**
 * On a terminal, the lines sent so far (the answer counts what landed once all is in), counted
 * as the request reads them: a "data" listener would let the stream flow before fetch reads it,
 * and drop what came first.
 */
function withProgress(
  input: Readable,
  progress: { lines: number; last: number },
  io: Run["io"],
): Readable {
  if (io.stderr.isTTY !== true) return input;
  return through(
    input,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        for (const byte of chunk) if (byte === 10) progress.lines += 1;
        if (performance.now() - progress.last > 500) {
          progress.last = performance.now();
          io.stderr.write(`\rsent ${progress.lines} lines…`);
        }
        done(null, chunk);
      },
    }),
  );
}

/** `input` piped into `transform`, an error of the input failing the transform's side too. */
function through(input: Readable, transform: Transform): Readable {
  input.on("error", (error: Error) => transform.destroy(error));
  return input.pipe(transform);
}

/** Drops the first `count` lines of a byte stream (what an earlier request already handled). */
function afterLines(count: number): Transform {
  let left = count;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let at = 0;
      while (left > 0) {
        const end = chunk.indexOf(10, at);
        if (end === -1) return done();
        left -= 1;
        at = end + 1;
      }
      done(null, at === 0 ? chunk : chunk.subarray(at));
    },
  });
}
