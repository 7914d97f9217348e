/**
 * Why a file could not be opened, read or written, in words first and the errno after: Node's own
 * message (`ENOENT: no such file or directory, open '/abs/path/q.sql'`) leads with the code and
 * repeats an absolute path the user did not type. Both CLIs (sqlsvc, memsvc) say it this way.
 *
 * @example
 * fileErrorReason(await readFile("q.sql").catch((e: unknown) => e));
 * // "no such file or directory (ENOENT)"
 */
export function fileErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const system = /^([A-Z][A-Z0-9_]+): (.+?)(?:, \w+ '.*')?$/s.exec(message);
  return system === null ? message : `${system[2]} (${system[1]})`;
}

/**
 * A file that could not be read, named as the user typed it (`-` is stdin).
 *
 * @example
 * fileErrorText("q.sql", await readFile("q.sql").catch((e: unknown) => e));
 * // "q.sql: cannot read: no such file or directory (ENOENT)"
 */
export function fileErrorText(file: string, error: unknown): string {
  return `${file === "-" ? "stdin" : file}: cannot read: ${fileErrorReason(error)}`;
}
