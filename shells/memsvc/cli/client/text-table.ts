/** Below this many characters left for the last column, it goes on a line of its own. */
const STACK_BELOW = 40;

/**
 * Plain-text tables for the CLI: one header row, columns padded to their widest cell, the last
 * column cut (with `…`) so a row fits `width` characters. When the other columns leave the last
 * one fewer than 40 characters and a cell would be cut there (a memory's content beside its
 * 36-character id on an 80-column terminal), each row's last cell goes on the next line, indented
 * by two, with the whole width.
 * No colour, no box drawing: output that pipes into `grep`, `cut` and `less` as it is.
 *
 * @example
 * textTable(["id", "content"], [["3f9c…", "Deploys run on Fridays"]], 80);
 * // "id     content\n3f9c…  Deploys run on Fridays\n"
 */
export function textTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width = 100,
): string {
  const cells = [header, ...rows].map((row) => row.map(oneLine));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => columns(row[i] ?? ""))));
  const last = header.length - 1;
  const before = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const stacked = last > 0 && width - before < Math.min(STACK_BELOW, widths[last] ?? 0);
  const room = Math.max(20, stacked ? width - 2 : width - before);
  return cells
    .map((row) => {
      const line = row
        .map((cell, i) =>
          i === last
            ? stacked
              ? ""
              : cut(cell, room)
            : cell + " ".repeat((widths[i] ?? 0) - columns(cell)),
        )
        .join("  ")
        .trimEnd();
      const cell = row[last] ?? "";
      return stacked && cell !== "" ? `${line}\n  ${cut(cell, room)}` : line;
    })
    .join("\n")
    .concat("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Cuts `text` to `room` terminal columns, `…` included, between characters (never inside a
 * surrogate pair, which would print as U+FFFD), counting wide characters as two.
 */
function cut(text: string, room: number): string {
  if (columns(text) <= room) return text;
  let kept = "";
  let used = 0;
  for (const char of text) {
    const width = columns(char);
    if (used + width > room - 1) break;
    kept += char;
    used += width;
  }
  return `${kept}…`;
}

/** Combining marks, zero-width joiners and variation selectors take no column of their own. */
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200f]|\p{Variation_Selector})$/u;
/** East Asian wide and fullwidth characters and emoji take two columns of a terminal. */
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]$/u;

/** How many terminal columns `text` takes (what `length` miscounts for CJK and emoji). */
function columns(text: string): number {
  let width = 0;
  for (const char of text) width += ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
  return width;
}

/**
 * A relative age for people: `just now`, `5 min ago`, `3 h ago`, `12 d ago`, or the date.
 *
 * @example
 * age("2026-11-28T10:00:00Z", Date.parse("2026-11-28T13:00:00Z")); // "3 h ago"
 */
export function age(iso: string, nowMs: number): string {
  const ms = nowMs - Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days < 60 ? `${days} d ago` : iso.slice(0, 10);
}
