import * as v from "valibot";
import { unknownFieldMessage } from "./suggest-field.js";

/**
 * A request body object that rejects unknown fields: the issue of an unknown key carries
 * `unknown field "scop"; did you mean "scope"?` (see {@link unknownFieldMessage}), and any other
 * object issue (not an object, a required key missing) carries `expected`. A silently dropped
 * typo can change what is stored (`{"scop": "permanent"}` made a session memory that expired),
 * so no body of the memory API accepts fields it does not know. The OpenAPI document says
 * `additionalProperties: false`.
 *
 * @example
 * const body = strictBody({ content: v.string() }, "expected a JSON object");
 * v.safeParse(body, { content: "x", contnet: "y" }).issues?.[0].message;
 * // 'unknown field "contnet"; did you mean "content"?'
 */
export function strictBody<const E extends v.ObjectEntries>(
  entries: E,
  expected: string,
): v.StrictObjectSchema<E, (issue: v.StrictObjectIssue) => string> {
  const known = Object.keys(entries);
  return v.strictObject(entries, (issue) => {
    if (issue.expected === "never" && typeof issue.input === "string")
      return unknownFieldMessage(issue.input, known);
    const missing = missingKey(issue, entries);
    return missing === undefined ? expected : `is required (${missing})`;
  });
}

/**
 * What a required key that is absent expects, in its own schema's words: valibot reports the
 * absence on the object, whose message ("expected a JSON object") would otherwise name the key
 * but describe the body (`memories.0.scope: expected a JSON object` over MCP).
 */
function missingKey(issue: v.StrictObjectIssue, entries: v.ObjectEntries): string | undefined {
  if (issue.input !== undefined) return undefined;
  const path = issue.path ?? [];
  const key = path[path.length - 1]?.key;
  if (typeof key !== "string" || !Object.hasOwn(entries, key)) return undefined;
  return v.safeParse(entries[key] as v.GenericSchema, undefined).issues?.[0]?.message;
}

/**
 * True when a valibot issue is an unknown field of a {@link strictBody}; its message is the
 * whole description (no "got …" suffix).
 *
 * @example
 * if (isUnknownFieldIssue(issue)) return issue.message;
 */
export function isUnknownFieldIssue(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === "strict_object" && issue.expected === "never";
}
