/**
 * A bench's `--name N` option: an integer of at least `min` (1 unless given), or `fallback` when
 * it is not given. Any other value stops the bench with a message naming the option.
 *
 * @example
 * const N = intOption("n", 10_000); // npx tsx bench/x.ts --n 500 → 500
 */
export function intOption(name: string, fallback: number, min = 1): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`--${name} expects an integer of at least ${min}`);
  }
  return value;
}
