import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { loadLocomo } from "./locomo.js";

/** One document of a ranking set. */
export interface Doc {
  readonly id: string;
  readonly text: string;
  /** The documents a query of the same group may see (a project); "" for all. */
  readonly group: string;
  /** Further keys a hit on this document counts as (LongMemEval: its session). */
  readonly keys?: readonly string[];
  /** When it was written, ms relative to the set's present (the realistic store: its age). */
  readonly time?: number;
}

/** One judged query of a ranking set. */
export interface Query {
  readonly text: string;
  readonly relevant: readonly string[];
  readonly group: string;
}

/** A named set of documents and judged queries. */
export interface DataSet {
  readonly name: string;
  readonly docs: readonly Doc[];
  readonly queries: readonly Query[];
}

/**
 * The realistic store (bench/data/team-memories.json): permanent memories are visible to every
 * query, project ones to that project's queries; only answerable questions are asked.
 *
 * @example
 * const set = teamSet(); // 200 docs, 66 queries
 */
export function teamSet(): DataSet {
  const data = JSON.parse(
    readFileSync(new URL("../data/team-memories.json", import.meta.url), "utf8"),
  ) as {
    memories: { id: string; content: string; scope: string; project: string; age_days: number }[];
    questions: { question: string; project: string; relevant: string[] }[];
  };
  return {
    name: "realistic store",
    docs: data.memories.map((m) => ({
      id: m.id,
      text: m.content,
      group: m.scope === "permanent" ? "" : m.project,
      time: -m.age_days * 86_400_000,
    })),
    queries: data.questions
      .filter((q) => q.relevant.length > 0)
      .map((q) => ({ text: q.question, relevant: q.relevant, group: q.project })),
  };
}

/**
 * The coding paraphrases (bench/data/coding-paraphrases.json): 40 coding-assistant memories, each
 * with one question worded apart from it (few shared words), and 20 memories no question asks
 * for; every memory visible to every question.
 *
 * @example
 * const set = codingSet(); // 60 docs, 40 queries
 */
export function codingSet(): DataSet {
  const data = JSON.parse(
    readFileSync(new URL("../data/coding-paraphrases.json", import.meta.url), "utf8"),
  ) as {
    memories: { id: string; content: string }[];
    queries: { query: string; relevant: string[] }[];
  };
  return {
    name: "coding paraphrases",
    docs: data.memories.map((m) => ({ id: m.id, text: m.content, group: "" })),
    queries: data.queries.map((q) => ({ text: q.query, relevant: q.relevant, group: "" })),
  };
}

/**
 * LoCoMo (`locomo10.json`), each conversation its own group; a document's id is
 * `<sample>/D<session>:<turn>`.
 *
 * @example
 * const set = locomoSet("/data/locomo10.json"); // 5,882 docs, 1,536 queries
 */
export function locomoSet(path: string): DataSet {
  const data = loadLocomo(path);
  return {
    name: "LoCoMo",
    docs: data.samples.flatMap((s) =>
      s.turns.map((t) => ({ id: `${s.sampleId}/${t.diaId}`, text: t.content, group: s.sampleId })),
    ),
    queries: data.samples.flatMap((s) =>
      s.questions.map((q) => ({
        text: q.question,
        relevant: q.evidence.map((e) => `${s.sampleId}/${e}`),
        group: s.sampleId,
      })),
    ),
  };
}

/**
 * A BEIR-format directory (`corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`); only judged
 * queries are asked, every document is visible to every query.
 *
 * @example
 * const set = beirSet("/data/negconstraint");
 */
export function beirSet(dir: string): DataSet {
  const lines = (file: string) =>
    readFileSync(`${dir}/${file}`, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
  const docs = lines("corpus.jsonl").map((l) => {
    const d = JSON.parse(l) as { _id: string; title?: string; text: string };
    return { id: d._id, text: d.title ? `${d.title}. ${d.text}` : d.text, group: "" };
  });
  const relevant = new Map<string, string[]>();
  for (const l of lines("qrels/test.tsv").slice(1)) {
    const [query, doc, score] = l.split("\t");
    if (query === undefined || doc === undefined || Number(score) <= 0) continue;
    relevant.set(query, [...(relevant.get(query) ?? []), doc]);
  }
  const queries = lines("queries.jsonl").flatMap((l) => {
    const q = JSON.parse(l) as { _id: string; text: string };
    const rel = relevant.get(q._id);
    return rel === undefined ? [] : [{ text: q.text, relevant: rel, group: "" }];
  });
  return { name: basename(dir), docs, queries };
}

/**
 * A LongMemEval-format file (a list of haystacks, each with `haystack_session_ids`,
 * `haystack_sessions` of `{role, content}` turns and either `question` / `answer_session_ids`
 * or the plural `questions` / per-question `answer_session_ids`): one document per turn in
 * conversation order, each haystack its own group; a question is judged at the session level
 * (a hit counts for its session, as LongMemEval's session recall does).
 *
 * @example
 * const set = longMemEvalSet("/tmp/longmemeval_s.json");
 */
export function longMemEvalSet(path: string): DataSet {
  const data = JSON.parse(readFileSync(path, "utf8")) as {
    question_id: string;
    question?: string;
    questions?: string[];
    answer_session_ids: string[] | string[][];
    haystack_session_ids: string[];
    haystack_sessions: { role: string; content: string }[][];
  }[];
  const docs: Doc[] = [];
  const queries: Query[] = [];
  for (const h of data) {
    h.haystack_sessions.forEach((turns, s) => {
      const session = `${h.question_id}/${h.haystack_session_ids[s] ?? s}`;
      turns.forEach((t, k) =>
        docs.push({
          id: `${session}#${k}`,
          text: t.content,
          group: h.question_id,
          keys: [session],
        }),
      );
    });
    const texts = h.questions ?? (h.question === undefined ? [] : [h.question]);
    texts.forEach((text, i) => {
      const answer = h.questions === undefined ? h.answer_session_ids : h.answer_session_ids[i];
      const sessions = (Array.isArray(answer) ? answer : []) as string[];
      if (sessions.length > 0) {
        queries.push({
          text,
          relevant: sessions.map((x) => `${h.question_id}/${x}`),
          group: h.question_id,
        });
      }
    });
  }
  return { name: basename(path, ".json"), docs, queries };
}
