import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { orphanedQueryEnd } from "../signals.js";

function lineCommentBody(t: Token): string {
  return t.text.startsWith("#") ? t.text.slice(1) : t.text.slice(2);
}

/**
 * Comments that cut a query short or hide code: an empty comment ending the input (`… OR 1=1 --`),
 * a comment whose text starts with the orphaned closing quote (`'admin'--' AND pw = …`), `;--`,
 * a trailing or unclosed block comment, and MySQL conditional comments (`/*!…*\/`). An ordinary
 * comment (`WHERE id = 1 -- by id`, `-- migration 12` on its own line) is not reported.
 *
 * @example
 * scanSql("SELECT * FROM users WHERE id = '1'--").findings[0]?.pattern; // "COMMENT_BYPASS"
 */
export const commentBypassDetector: Detector = {
  family: "comment-bypass",
  patterns: ["COMMENT_BYPASS"],
  detect(ctx, emit) {
    const tokens = ctx.tokens;
    let last = tokens.length - 1;
    while (
      last >= 0 &&
      ((tokens[last] as Token).kind === "whitespace" || (tokens[last] as Token).kind === "newline")
    )
      last--;
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
          emit(
            makeFinding(
              "COMMENT_BYPASS",
              "MEDIUM",
              "Unclosed or trailing block comment may indicate injection",
            ),
          );
        }
        continue;
      }
      codeOnLine = true;
      previous = t;
    }
  },
};
