/** `POST /v1/remember/batch`: remembers many memories in one call (one embedding, one write). */
import { parseInput } from "../model/parse-input.js";
import { rememberBatchInputSchema } from "../model/schemas.js";
import type { ServiceContext } from "../service-context.js";
import type { RememberBatchResult } from "../model/types.js";
import { checkTtl, rememberAll } from "./remember-all.js";

/**
 * Validates every memory first (a bad one fails the whole call, naming `memories[i].<field>`),
 * then remembers them in order as `remember` would: a later memory may merge into an
 * earlier one of the same call. The answer lists one item per input, in input order.
 *
 * @example
 * await rememberBatch(context, { memories: [{ content: "a" }, { content: "a" }] });
 * // { memories: [{ id, stored: true, deduplicated: false }, { id, stored: true, deduplicated: true }] }
 */
export async function rememberBatch(
  context: ServiceContext,
  input: unknown,
): Promise<RememberBatchResult> {
  const { memories } = parseInput(rememberBatchInputSchema, input);
  memories.forEach((body, i) => checkTtl(body, `memories[${i}].`));
  const planned = memories.map((body) => ({ body, hash: context.contentHash(body.content) }));
  return { memories: await rememberAll(context, planned) };
}
