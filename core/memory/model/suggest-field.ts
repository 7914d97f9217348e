/**
 * Finds the known field a misspelt one most likely meant, for "did you mean" hints: the closest
 * by edit distance (insertions, deletions, substitutions and swaps of neighbours), compared
 * case-insensitively, when it is at most 2 edits away and under half the name's length (so `id`
 * does not suggest `q`). Ties go to the earlier known field.
 *
 * @example
 * suggestField("scop", ["content", "scope", "type"]); // "scope"
 * suggestField("colour", ["content", "scope", "type"]); // undefined
 */
export function suggestField(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= MAX_SUGGESTION_EDITS && bestDistance * 2 < Math.max(lower.length, 2)
    ? best
    : undefined;
}

/** Most edits between a misspelt field and the one suggested. */
export const MAX_SUGGESTION_EDITS = 2;

/**
 * The message of an unknown request field, with a suggestion when one is close.
 *
 * @example
 * unknownFieldMessage("scop", ["content", "scope"]); // 'unknown field "scop"; did you mean "scope"?'
 */
export function unknownFieldMessage(name: string, known: readonly string[]): string {
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  const suggestion = suggestField(name, known);
  return suggestion === undefined
    ? `unknown field ${JSON.stringify(shown)}`
    : `unknown field ${JSON.stringify(shown)}; did you mean ${JSON.stringify(suggestion)}?`;
}

/** Optimal string alignment distance; field names are short, so the O(n·m) table is cheap. */
function editDistance(a: string, b: string): number {
  // Names longer than any field cannot be 2 edits from one: skip the table.
  if (Math.abs(a.length - b.length) > MAX_SUGGESTION_EDITS) return Infinity;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i += 1) d[i * cols] = i;
  for (let j = 0; j < cols; j += 1) d[j] = j;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return at(a.length, b.length);
}
