/**
 * Microseconds per call of `fn`: the median over `rounds` rounds of `roundMs` each (after
 * `warmup` calls), so one noisy moment on a shared machine moves it less.
 *
 * @example
 * medianMicroseconds(() => validateSql(parser, sql), { rounds: 5, roundMs: 80, warmup: 20 });
 */
export function medianMicroseconds(
  fn: () => unknown,
  options: { readonly rounds?: number; readonly roundMs?: number; readonly warmup?: number } = {},
): number {
  const { rounds = 5, roundMs = 80, warmup = 0 } = options;
  for (let i = 0; i < warmup; i++) fn();
  const perCall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let runs = 0;
    const start = performance.now();
    let now = start;
    while (now - start < roundMs) {
      fn();
      runs++;
      now = performance.now();
    }
    perCall.push(((now - start) * 1000) / runs);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(rounds / 2)] ?? 0;
}
