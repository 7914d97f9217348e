import * as v from "valibot";
import { AgentServicesError } from "../../errors.js";
import { FIELD_EXPECTATIONS, memoryIdSchema } from "./schemas.js";
import { isUnknownFieldIssue } from "./strict-body.js";

type AnySchema = v.GenericSchema;
type AnyIssue = v.BaseIssue<unknown>;

/**
 * Validates `input` against one of the memory schemas and returns it with defaults applied, or
 * throws `AgentServicesError("invalid_input", …)` with {@link describeIssues}' message.
 *
 * @example
 * const body = parseInput(rememberInputSchema, await c.req.json());
 */
export function parseInput<S extends AnySchema>(schema: S, input: unknown): v.InferOutput<S> {
  // valibot's object schema accepts arrays; no request body or id here is ever one.
  if (Array.isArray(input)) {
    throw new AgentServicesError("invalid_input", `body: ${FIELD_EXPECTATIONS.body}, got an array`);
  }
  const result = v.safeParse(schema, input);
  if (!result.success) throw new AgentServicesError("invalid_input", describeIssues(result.issues));
  const malformed = loneSurrogateField(result.output, "");
  if (malformed !== undefined) {
    throw new AgentServicesError(
      "invalid_input",
      `${malformed}: expected well-formed Unicode text, got a lone UTF-16 surrogate`,
    );
  }
  return result.output;
}

/**
 * The path of the first string holding a lone UTF-16 surrogate (`content`, `tags[1]`,
 * `memories[3].project`), or `undefined`. Such text cannot be stored (Chroma refuses the whole
 * write that carries it), so it is refused here, naming the field. A loop over char codes: a
 * 1 MB body costs ~1 ms, where the equivalent regex costs over 100 ms.
 *
 * @example
 * loneSurrogateField({ content: "ok", tags: ["\ud800"] }, ""); // "tags[0]"
 */
export function loneSurrogateField(value: unknown, path: string): string | undefined {
  // The common case, nothing malformed, builds no path: paths are spelled out only on the way
  // back from a find (a batch of 1,000 memories has ~7,000 fields).
  const found = loneSurrogatePath(value);
  if (found === undefined) return undefined;
  let spelled = path;
  for (const step of found) {
    spelled =
      typeof step === "number"
        ? `${spelled}[${step}]`
        : spelled === ""
          ? step
          : `${spelled}.${step}`;
  }
  return spelled || "body";
}

/** The steps (keys and indexes) to the first malformed string, innermost last; [] for `value`. */
function loneSurrogatePath(value: unknown): (string | number)[] | undefined {
  if (typeof value === "string") return hasLoneSurrogate(value) ? [] : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = loneSurrogatePath(value[i]);
      if (found !== undefined) return [i, ...found];
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const found = loneSurrogatePath((value as Record<string, unknown>)[key]);
      if (found !== undefined) return [key, ...found];
    }
  }
  return undefined;
}

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code > 0xdbff) return true;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    i += 1;
  }
  return false;
}

/**
 * One readable message for valibot issues: `<field>: <expected>, got <received>` per field,
 * joined by `; ` (one issue per field, in order). Nested fields are written `tags[2]`.
 *
 * @example
 * describeIssues(v.safeParse(rememberInputSchema, { content: "x", confidence: 1.5 }).issues!);
 * // "confidence: expected a number between 0 and 1, got 1.5"
 */
export function describeIssues(issues: readonly AnyIssue[]): string {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = fieldOf(issue);
    if (byField.has(field)) continue;
    byField.set(field, describeIssue(field, issue));
  }
  return [...byField.values()].join("; ");
}

function describeIssue(field: string, issue: AnyIssue): string {
  if (isUnknownFieldIssue(issue)) {
    // The path ends at the unknown key: name the object that holds it, if nested.
    const parent = pathName((issue.path ?? []).slice(0, -1));
    return parent === "body" ? issue.message : `${parent}: ${issue.message}`;
  }
  // valibot reports a missing required key on the object, with the object's message.
  const objectIssue = issue.type === "object" || issue.type === "strict_object";
  if (objectIssue && issue.input === undefined && issue.path !== undefined) {
    const expected = (FIELD_EXPECTATIONS as Record<string, string>)[lastKey(issue)];
    return expected === undefined ? `${field}: is required` : `${field}: is required (${expected})`;
  }
  return `${field}: ${issue.message}, got ${describeValue(issue.input)}`;
}

function fieldOf(issue: AnyIssue): string {
  return pathName(issue.path ?? []);
}

function pathName(path: readonly v.IssuePathItem[]): string {
  let field = "";
  for (const item of path) {
    const key: unknown = item.key;
    if (typeof key === "number") field += `[${key}]`;
    else field += field === "" ? String(key) : `.${String(key)}`;
  }
  return field === "" ? "body" : field;
}

function lastKey(issue: AnyIssue): string {
  const path = issue.path ?? [];
  return String(path[path.length - 1]?.key);
}

/** What was received, short enough for an error line and never the whole (maybe 1 MB) value. */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40
        ? `${JSON.stringify(value.slice(0, 40))}… (a string)`
        : JSON.stringify(value);
    case "number":
    case "boolean":
      return String(value);
    case "undefined":
      return "nothing";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/**
 * Validates a memory id (a UUID, any version, any case) and returns it in lower case, the form
 * ids are stored in; throws `invalid_input` naming `id` otherwise.
 *
 * @example
 * parseMemoryId("0B6F3C1E-6D1C-4F1E-9A57-2F0D7F4B8C11"); // "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11"
 */
export function parseMemoryId(id: unknown): string {
  if (typeof id === "string" && v.is(memoryIdSchema, id)) return id.toLowerCase();
  throw new AgentServicesError(
    "invalid_input",
    `id: ${FIELD_EXPECTATIONS.id}, got ${describeValue(id)}`,
  );
}
