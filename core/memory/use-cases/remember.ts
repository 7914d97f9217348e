/** `POST /v1/remember`: stores one memory, or merges it into the live duplicate it has. */
import { parseInput } from "../model/parse-input.js";
import { rememberInputSchema } from "../model/schemas.js";
import type { ServiceContext } from "../service-context.js";
import type { RememberResult } from "../model/types.js";
import { checkTtl, rememberAll } from "./remember-all.js";

/**
 * Validates one memory and remembers it: a live memory with the same content key (normalised
 * content, type, scope, project) absorbs it (tags joined, higher confidence) and the answer says
 * `deduplicated: true`; otherwise it is embedded and stored as a new memory.
 *
 * @example
 * await remember(context, { content: "Deploys run on Fridays", type: "rule" }); // { id, stored: true }
 */
export async function remember(context: ServiceContext, input: unknown): Promise<RememberResult> {
  const body = parseInput(rememberInputSchema, input);
  checkTtl(body, "");
  const [item] = await rememberAll(context, [{ body, hash: context.contentHash(body.content) }]);
  if (item === undefined) throw new Error("remember: no result for one memory");
  return item.deduplicated
    ? { id: item.id, stored: true, deduplicated: true }
    : { id: item.id, stored: true };
}
