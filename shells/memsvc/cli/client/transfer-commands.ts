import { open, type FileHandle } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
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

/**
 * `memsvc import`: NDJSON from stdin or `--file F` to the service's import, with the lines sent
 * so far on a terminal; prints what landed, merged and was rejected.
 *
 * @example
 * await importMemories({ client, values: { file: "backup.ndjson" }, arg: "", io });
 */
export async function importMemories({ client, values, io }: Run): Promise<void> {
  const file = optionText(values["file"]);
  if (file === undefined && (io.stdin as { isTTY?: boolean }).isTTY === true) {
    throw new UsageError("import reads NDJSON from stdin or --file F; nothing is piped in");
  }
  const input =
    file === undefined ? (io.stdin as Readable) : (await openFile(file, "r")).createReadStream();
  // On a terminal, the lines sent so far (the answer counts what landed once all is in),
  // counted as the request reads them: a "data" listener would let the stream flow before
  // fetch reads it, and drop what came first.
  let lines = 0;
  let last = performance.now();
  const source =
    io.stderr.isTTY !== true
      ? input
      : input.pipe(
          new Transform({
            transform(chunk: Buffer, _encoding, done) {
              for (const byte of chunk) if (byte === 10) lines += 1;
              if (performance.now() - last > 500) {
                last = performance.now();
                io.stderr.write(`\rsent ${lines} lines…`);
              }
              done(null, chunk);
            },
          }),
        );
  if (source !== input) input.on("error", (error: Error) => source.destroy(error));
  const answer = await client.postNdjson<{
    imported: number;
    deduplicated: number;
    rejected: { line: number; error: string }[];
  }>("/v1/import", source);
  if (io.stderr.isTTY === true && lines > 0) io.stderr.write("\r\x1b[K");
  if (values["json"] === true) return printJson(io, answer);
  io.stdout.write(
    `imported ${answer.imported}, merged ${answer.deduplicated} duplicates, rejected ${answer.rejected.length}\n`,
  );
  for (const { line, error } of answer.rejected.slice(0, 20)) {
    io.stderr.write(`line ${line}: ${error}\n`);
  }
}
