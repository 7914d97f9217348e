/**
 * A bench's `--name N` option: a positive integer, or `fallback` when it is not given. A value
 * that is no positive integer stops the bench with a message naming the option.
 *
 * @example
 * const N = intOption("n", 10_000); // npx tsx bench/x.ts --n 500 → 500
 */
export function intOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`--${name} expects a positive integer`);
  }
  return value;
}
