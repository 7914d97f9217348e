import type { ReadSegment } from "./journal-frames.js";

/**
 * What the marks file keeps of a segment: the store holds every entry of its frames up to byte
 * `appliedBytes` (a start skips them), and bytes up to `syncedBytes`, holding `syncedEntries`
 * entries, were synced (so acknowledged): a segment found shorter or damaged below that lost
 * acknowledged writes, and the journal says so.
 */
export interface SegmentMark {
  readonly appliedBytes: number;
  readonly syncedBytes: number;
  readonly syncedEntries: number;
}

/** Damage a `FileWriteJournal` found in a segment at `open()`. */
export interface JournalDamage {
  /** The segment file. */
  readonly segment: string;
  /**
   * `lost`: bytes that had been synced, so acknowledged, are gone (the file was cut or damaged
   * after the fact). `unknown`: only bytes past the last synced mark are bad, which a crash in
   * the middle of a write leaves too (that write was never acknowledged): nobody can tell.
   */
  readonly kind: "lost" | "unknown";
  /** Acknowledged entries known to be lost (`undefined`: some, how many is not known). */
  readonly lostEntries: number | undefined;
  /** One line for the log saying all of the above. */
  readonly message: string;
}

/**
 * Judges what `open()` read of a segment against its marks: damage below the synced mark, in a
 * segment closed with its footer, or a file shorter than what was synced lost acknowledged
 * entries (counted where the marks or the footer tell how many there were); damage past the mark
 * is ambiguous and reported as such, never as "never acknowledged". Damage the store already
 * holds the entries of (below the applied mark) costs nothing and is not reported.
 */
export function judgeDamage(
  path: string,
  fileBytes: number,
  read: ReadSegment,
  mark: SegmentMark | undefined,
): JournalDamage[] {
  const applied = mark?.appliedBytes ?? 0;
  const synced = mark?.syncedBytes ?? 0;
  const stretches = read.damage.filter((d) => d.at + d.bytes > applied);
  const cut = fileBytes < synced;
  if (stretches.length === 0 && !cut) return [];
  const sealed = read.footer !== undefined;
  const certain = stretches.filter((d) => sealed || d.at < synced);
  const unsure = stretches.filter((d) => !(sealed || d.at < synced));
  const describe = (list: typeof stretches) =>
    list
      .map((d) => `${d.tail ? "torn frame" : "corrupt frame"} at byte ${d.at} (${d.bytes} bytes)`)
      .join(", ");
  const prefix = `write journal ${path}:`;
  if (certain.length === 0 && !cut) {
    return [
      {
        segment: path,
        kind: "unknown",
        lostEntries: undefined,
        message:
          `${prefix} ${describe(unsure)} past its last synced mark (byte ${synced}); a crash in ` +
          "the middle of a write leaves that (a write never acknowledged), and so does a file cut " +
          "or damaged afterwards (writes acknowledged in the second before lost): the journal " +
          "cannot tell which; ignored, the rest is replayed",
      },
    ];
  }
  const lostEntries = countLost(read, mark, sealed, stretches.length < read.damage.length);
  const what = [
    ...(certain.length > 0 ? [describe(certain)] : []),
    ...(cut ? [`the file has ${fileBytes} bytes of the ${synced} synced`] : []),
  ].join("; ");
  const count =
    lostEntries === undefined
      ? "an unknown number of acknowledged entries are lost"
      : lostEntries === 0
        ? "no entry is missing (only framing was hit)"
        : `${lostEntries} acknowledged ${lostEntries === 1 ? "entry is" : "entries are"} lost`;
  const rest =
    unsure.length > 0
      ? `; besides, ${describe(unsure)} past the synced mark may be a write a crash cut (never acknowledged) or damage: cannot tell`
      : "";
  return [
    {
      segment: path,
      kind: "lost",
      lostEntries,
      message: `${prefix} damaged after it was synced (${what}): ${count}${rest}; the rest is replayed`,
    },
  ];
}

/**
 * Acknowledged entries missing from the segment: the footer's count (a sealed segment) or the
 * synced count of the marks, less the entries read in synced bytes; `undefined` when neither
 * tells, or when damage below the applied mark makes the figure mix in entries the store has.
 */
function countLost(
  read: ReadSegment,
  mark: SegmentMark | undefined,
  sealed: boolean,
  damageBelowApplied: boolean,
): number | undefined {
  if (damageBelowApplied) return undefined;
  if (sealed) return Math.max(0, (read.footer?.entries ?? 0) - read.entries);
  if (mark === undefined) return undefined;
  const readSynced = read.frames
    .filter((f) => f.end <= mark.syncedBytes)
    .reduce((sum, f) => sum + f.entries.length, 0);
  return Math.max(0, mark.syncedEntries - readSynced);
}
