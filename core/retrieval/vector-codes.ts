/** Largest magnitude of a row's int8 code. */
export const ROW_CODE_MAX = 127;

/** What quantising one row leaves behind for the error bound of the bounded scan. */
export interface RowCodeStats {
  /** The row's scale: component j ≈ code j × scale (float32). */
  readonly scale: number;
  /** An upper bound of ‖row − codes × scale‖₂. */
  readonly residual: number;
  /** Σ |code j| × scale (bounds the query's rounding error against this row). */
  readonly l1: number;
  /** An upper bound of ‖row‖₂. */
  readonly norm: number;
}

/**
 * Writes the int8 codes of a float32 row (`values`, already rounded to float32) into `codes`
 * (`codes.length` ≥ `values.length`; the rest is zeroed) and returns its scale and error terms.
 * The scale is float32, so the kernel and this bound use the same number.
 *
 * @example
 * const codes = new Int8Array(4);
 * quantizeRow(Float32Array.of(0.5, -1), codes); // codes = [64, -127, 0, 0], scale ≈ 1/127
 */
export function quantizeRow(values: Float32Array, codes: Int8Array): RowCodeStats {
  let largest = 0;
  // Indexed, not for-of: TurboFan boxes a typed array iterator's values (~1.6 KB of garbage a
  // 100-dimension row, measured).
  // eslint-disable-next-line @typescript-eslint/prefer-for-of
  for (let j = 0; j < values.length; j += 1) {
    largest = Math.max(largest, Math.abs(values[j] as number));
  }
  codes.fill(0);
  // A non-finite row gets an infinite bound (every row is then scored exactly); a zero row, 0.
  if (!Number.isFinite(largest)) return { scale: 0, residual: Infinity, l1: 0, norm: Infinity };
  if (largest === 0) return { scale: 0, residual: 0, l1: 0, norm: 0 };
  const scale = Math.fround(largest / ROW_CODE_MAX);
  let squares = 0;
  let l1 = 0;
  let norm = 0;
  for (let j = 0; j < values.length; j += 1) {
    const value = values[j] as number;
    const code = Math.max(-ROW_CODE_MAX, Math.min(ROW_CODE_MAX, Math.round(value / scale)));
    codes[j] = code;
    const error = value - code * scale;
    squares += error * error;
    l1 += Math.abs(code) * scale;
    norm += value * value;
  }
  const up = 1 + 1e-12;
  return { scale, residual: Math.sqrt(squares) * up, l1: l1 * up, norm: Math.sqrt(norm) * up };
}

/**
 * Writes the int16 codes of a float32 query into `codes` (the rest zeroed), each at most
 * `codeMax` in magnitude (so the kernel's int32 sums cannot overflow), and returns the scale
 * (component j ≈ code j × scale, off by at most scale / 2) and an upper bound of ‖query‖₂.
 *
 * @example
 * const codes = new Int16Array(4);
 * quantizeQuery(Float32Array.of(0.5, -1), codes, 32767); // codes = [16384, -32767, 0, 0]
 */
export function quantizeQuery(
  values: Float32Array,
  codes: Int16Array,
  codeMax: number,
): { scale: number; norm: number } {
  let largest = 0;
  let norm = 0;
  // Indexed, not for-of, as in quantizeRow.
  // eslint-disable-next-line @typescript-eslint/prefer-for-of
  for (let j = 0; j < values.length; j += 1) {
    const value = values[j] as number;
    largest = Math.max(largest, Math.abs(value));
    norm += value * value;
  }
  codes.fill(0);
  if (!Number.isFinite(largest)) return { scale: 0, norm: Infinity };
  if (largest === 0) return { scale: 0, norm: 0 };
  const scale = largest / codeMax;
  for (let j = 0; j < values.length; j += 1) {
    codes[j] = Math.max(-codeMax, Math.min(codeMax, Math.round((values[j] as number) / scale)));
  }
  return { scale, norm: Math.sqrt(norm) * (1 + 1e-12) };
}
