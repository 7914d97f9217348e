/**
 * One replacement in a text: the UTF-16 range `[start, end)` becomes `text` (an insertion when
 * `start === end`, a deletion when `text` is empty).
 *
 * @example
 * const edit: TextEdit = { start: 9, end: 12, text: "" }; // delete three characters
 */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** True when the two edits overlap, or are both insertions at one point (no defined order). */
function clashes(a: TextEdit, b: TextEdit): boolean {
  if (a.start < b.end && b.start < a.end) return true;
  return a.start === a.end && b.start === b.end && a.start === b.start;
}

/**
 * `source` with groups of edits applied. A group (the edits of one fix) is applied whole or not
 * at all: a group that clashes with one already taken is left out and counted, so the caller can
 * run another pass for it. Groups are taken in the order given.
 *
 * @example
 * applyEdits("a  b ", [[{ start: 1, end: 3, text: " " }], [{ start: 4, end: 5, text: "" }]]);
 * // { text: "a b", applied: 2, skipped: 0 }
 */
export function applyEdits(
  source: string,
  groups: readonly (readonly TextEdit[])[],
): { text: string; applied: number; skipped: number } {
  const taken: TextEdit[] = [];
  let applied = 0;
  let skipped = 0;
  for (const group of groups) {
    if (group.some((edit) => clashesWithTaken(taken, edit))) {
      skipped++;
      continue;
    }
    for (const edit of group) taken.splice(insertionIndex(taken, edit), 0, edit);
    applied++;
  }
  let out = "";
  let copied = 0;
  for (const edit of taken) {
    out += source.slice(copied, edit.start) + edit.text;
    copied = edit.end;
  }
  return { text: out + source.slice(copied), applied, skipped };
}

/** Index of the first taken edit that starts after `edit` (taken edits are sorted, disjoint). */
function insertionIndex(taken: readonly TextEdit[], edit: TextEdit): number {
  let lo = 0;
  let hi = taken.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const t = taken[mid] as TextEdit;
    if (t.start < edit.start || (t.start === edit.start && t.end <= edit.end)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function clashesWithTaken(taken: readonly TextEdit[], edit: TextEdit): boolean {
  const at = insertionIndex(taken, edit);
  const before = taken[at - 1];
  const after = taken[at];
  return (
    (before !== undefined && clashes(before, edit)) || (after !== undefined && clashes(after, edit))
  );
}
