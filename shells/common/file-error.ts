/**
 * Why a file could not be read, in words first and the errno after: Node's own message
 * (`ENOENT: no such file or directory, open '/abs/path/q.sql'`) leads with the code and repeats
 * an absolute path the user did not type.
 *
 * @example
 * fileErrorText("q.sql", await readFile("q.sql").catch((e: unknown) => e));
 * // "q.sql: cannot read: no such file or directory (ENOENT)"
 */
export function fileErrorText(file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const system = /^([A-Z][A-Z0-9_]+): (.+?)(?:, \w+ '.*')?$/s.exec(message);
  const reason = system === null ? message : `${system[2]} (${system[1]})`;
  return `${file === "-" ? "stdin" : file}: cannot read: ${reason}`;
}
