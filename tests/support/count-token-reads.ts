import type { Token } from "../../core/sql/token.js";
import { tokenize } from "../../core/sql/tokenizer.js";

/**
 * Counts property reads on the tokens `run` works with: a cost measure that does not depend on
 * the machine. Wrapping each token in a counting proxy makes every pass report its work.
 *
 * @example
 * const work = countTokenReads(sql, (tokens) => scanSql(sql, undefined, tokens));
 */
export function countTokenReads(sql: string, run: (tokens: readonly Token[]) => void): number {
  let reads = 0;
  const tokens = tokenize(sql).map(
    (t) =>
      new Proxy(t, {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      }),
  );
  run(tokens);
  return reads;
}
