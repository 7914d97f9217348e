import { createReadStream, createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { printJson, type Run } from "./client-io.js";
import { optionText, UsageError } from "./client-run.js";

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
  let lines = 0;
  let last = performance.now();
  const counted = Readable.fromWeb(stream as never).on("data", (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
    if (file !== undefined && io.stderr.isTTY === true && performance.now() - last > 500) {
      last = performance.now();
      io.stderr.write(`\rexported ${lines} memories…`);
    }
  });
  await pipeline(counted, file === undefined ? io.stdout : createWriteStream(file), {
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
  const input = file === undefined ? (io.stdin as Readable) : createReadStream(file);
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
