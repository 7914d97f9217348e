import { readFileSync } from "node:fs";

/** One dialogue turn, stored as one `episode` memory. */
export interface LocomoTurn {
  /** `D<session>:<turn>`, normalised (`D30:5`). */
  readonly diaId: string;
  /** `"<speaker>: <text>"`, the memory's content. */
  readonly content: string;
}

/** One question of categories 1-4 with at least one evidence turn that exists. */
export interface LocomoQuestion {
  readonly question: string;
  readonly category: number;
  /** Normalised evidence turn ids, each present in the conversation. */
  readonly evidence: readonly string[];
}

/** One of the ten conversations. */
export interface LocomoSample {
  readonly sampleId: string;
  readonly turns: readonly LocomoTurn[];
  readonly questions: readonly LocomoQuestion[];
}

/** The data set and what cleaning it dropped. */
export interface LocomoData {
  readonly samples: readonly LocomoSample[];
  /** Evidence ids that matched no turn (after normalisation). */
  readonly droppedEvidence: number;
  /** Questions of categories 1-4 left without any usable evidence. */
  readonly droppedQuestions: number;
}

export const LOCOMO_CATEGORIES: Readonly<Record<number, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface RawQa {
  question: string;
  evidence?: string[];
  category: number;
}
interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: RawQa[];
}

/**
 * `"D8:6; D9:17"` → `["D8:6", "D9:17"]`, `"D:11:26"` → `["D11:26"]`, `"D30:05"` → `["D30:5"]`.
 *
 * @example
 * normaliseEvidence(["D8:6; D9:17", "D:11:26"]); // ["D8:6", "D9:17", "D11:26"]
 */
export function normaliseEvidence(raw: readonly string[]): string[] {
  const ids: string[] = [];
  for (const entry of raw) {
    for (const m of entry.matchAll(/D:?(\d+):(\d+)/g)) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return [...new Set(ids)];
}

/**
 * Reads LoCoMo's `locomo10.json` (path from the command line; the data stays out of the repo):
 * every turn of every session, and the questions of categories 1-4 with usable evidence.
 *
 * @example
 * const { samples } = loadLocomo("/data/locomo/locomo10.json");
 */
export function loadLocomo(path: string): LocomoData {
  const raw = JSON.parse(readFileSync(path, "utf8")) as RawSample[];
  let droppedEvidence = 0;
  let droppedQuestions = 0;
  const samples = raw.map((sample) => {
    const turns: LocomoTurn[] = [];
    const sessions = Object.keys(sample.conversation)
      .filter((key) => /^session_\d+$/.test(key))
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const key of sessions) {
      for (const turn of sample.conversation[key] as RawTurn[]) {
        const [diaId] = normaliseEvidence([turn.dia_id]);
        if (diaId !== undefined) turns.push({ diaId, content: `${turn.speaker}: ${turn.text}` });
      }
    }
    const known = new Set(turns.map((t) => t.diaId));
    const questions: LocomoQuestion[] = [];
    for (const qa of sample.qa) {
      if (!(qa.category in LOCOMO_CATEGORIES)) continue;
      const ids = normaliseEvidence(qa.evidence ?? []);
      const evidence = ids.filter((id) => known.has(id));
      droppedEvidence += ids.length - evidence.length;
      if (evidence.length === 0) droppedQuestions += 1;
      else questions.push({ question: qa.question, category: qa.category, evidence });
    }
    return { sampleId: sample.sample_id, turns, questions };
  });
  return { samples, droppedEvidence, droppedQuestions };
}
