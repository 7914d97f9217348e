import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { lastNonBlankIndex, lineCommentBody, orphanedQueryEnd } from "../signals.js";

/** True for a comment body with nothing but blanks and the `-`/`+` of `-- -` and `--+`. */
function isFiller(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body.charAt(i);
    if (c !== " " && c !== "\t" && c !== "-" && c !== "+" && c !== "\r") return false;
  }
  return true;
}

/** A comment body that goes on with the condition it cut off (`-- AND owner_id = 9`). */
const CONDITION_TAIL = /^\s*(?:AND|OR)\s/i;
/** A comment body that starts like the clause it hides (`/* WHERE id = 1 *\/`). */
const CLAUSE_TAIL = /^\s*(?:WHERE|AND|OR|ORDER|GROUP|HAVING|LIMIT|UNION)\b/i;

/** A literal or closing bracket: what the input ended with when a comment cuts the query off. */
function endsValue(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === "string" || t.kind === "number" || t.text === ")");
}

/**
 * Comments that cut a query short or hide code: an empty comment ending the input (`… OR 1=1 --`;
 * HIGH right after a value, `name = 'admin'--`), a comment whose text starts with the orphaned
 * closing quote (`'admin'--' AND pw = …`) or goes on with the condition it cut off
 * (`id = 5-- AND owner_id = 9`), `;--`, an unclosed block comment, a trailing block comment that
 * holds a clause (`/* WHERE id = 1 *\/`), and MySQL conditional comments (`/*!…*\/`). An ordinary
 * comment (`WHERE id = 1 -- by id`, `-- migration 12` on its own line, a trailing
 * `/* report v2 *\/`) is not reported.
 *
 * @example
 * scanSql("SELECT * FROM users WHERE id = '1'--").findings[0]?.pattern; // "COMMENT_BYPASS"
 */
export const commentBypassDetector: Detector = {
  family: "comment-bypass",
  patterns: ["COMMENT_BYPASS"],
  detect(ctx, emit) {
    const tokens = ctx.tokens;
    const last = lastNonBlankIndex(tokens);
    let codeOnLine = false;
    let previous: Token | undefined;
    for (let i = 0; i <= last; i++) {
      const t = tokens[i] as Token;
      if (t.kind === "newline") {
        codeOnLine = false;
        continue;
      }
      if (t.kind === "whitespace") continue;
      if (t.kind === "line_comment") {
        const body = lineCommentBody(t);
        const trimmed = body.trimStart();
        const first = trimmed.charAt(0);
        if (i === last && trimmed === "") {
          emit(
            makeFinding(
              "COMMENT_BYPASS",
              "MEDIUM",
              t.text.startsWith("#")
                ? "Hash comment at end (MySQL)"
                : "Trailing SQL comment may indicate injection",
            ),
          );
        }
        if (codeOnLine && orphanedQueryEnd(body)) {
          emit(
            makeFinding("COMMENT_BYPASS", "HIGH", "Comment after quote/bracket (potential bypass)"),
          );
        } else if (codeOnLine && endsValue(previous)) {
          // `name = 'admin'--`, `id = 5-- AND owner_id = 9`: the input closed its value and cut
          // off the rest of the query (issue 8).
          if (i === last && isFiller(body)) {
            emit(makeFinding("COMMENT_BYPASS", "HIGH", "Comment cuts the query off after a value"));
          } else if (CONDITION_TAIL.test(body)) {
            emit(makeFinding("COMMENT_BYPASS", "HIGH", "Comment hides the rest of a condition"));
          }
        }
        if (
          previous?.text === ";" &&
          i === last &&
          (trimmed === "" || first === "'" || first === '"')
        ) {
          emit(makeFinding("COMMENT_BYPASS", "HIGH", "Statement terminator followed by comment"));
        }
        continue;
      }
      if (t.kind === "block_comment") {
        if (t.text.startsWith("/*!")) {
          emit(
            makeFinding(
              "COMMENT_BYPASS",
              "MEDIUM",
              "MySQL conditional comment (version-specific execution)",
            ),
          );
        } else if (
          codeOnLine &&
          orphanedQueryEnd(t.text.slice(2, t.unterminated === true ? undefined : -2))
        ) {
          emit(
            makeFinding("COMMENT_BYPASS", "HIGH", "Comment after quote/bracket (potential bypass)"),
          );
        } else if (t.unterminated === true) {
          emit(
            makeFinding(
              "COMMENT_BYPASS",
              "HIGH",
              "Unclosed block comment hides the rest of the query",
            ),
          );
        } else if (i === last && codeOnLine) {
          // A balanced comment at the end is a note (`SELECT a, b FROM t /* report v2 *\/`)
          // unless it holds the query's own next clause.
          const body = t.text.slice(2, -2);
          if (endsValue(previous) && CONDITION_TAIL.test(body)) {
            emit(makeFinding("COMMENT_BYPASS", "HIGH", "Comment hides the rest of a condition"));
          } else if (CLAUSE_TAIL.test(body)) {
            emit(
              makeFinding(
                "COMMENT_BYPASS",
                "MEDIUM",
                "Unclosed or trailing block comment may indicate injection",
              ),
            );
          }
        }
        continue;
      }
      codeOnLine = true;
      previous = t;
    }
  },
};
