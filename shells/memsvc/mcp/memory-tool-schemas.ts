import * as v from "valibot";
import {
  FIELD_EXPECTATIONS,
  MAX_REMEMBER_BATCH,
  MEMORY_SCOPES,
  rememberInputSchema,
  strictBody,
} from "../../../core/memory/index.js";
import type { ToolInputSchema } from "../../common/mcp/mcp-tool.js";

/**
 * What each memory `type` means, for the model choosing one (the MCP schemas say it on every
 * `type` parameter). Recall ranks rules highest and preferences lowest (`recall.weights.type`).
 */
export const MEMORY_TYPE_TEXT =
  '`rule`: an instruction to follow every time ("commit subjects at most 72 characters"); ' +
  '`fact`: something true about the user, a system or the code ("billing owns invoices"); ' +
  '`episode`: something that happened ("deploy 42 failed on a missing migration"); ' +
  '`procedure`: how to do something, as steps ("to roll back: kubectl rollout undo …"); ' +
  '`preference`: how the user likes things done ("prefers TypeScript").';

/**
 * What each memory `scope` means: how long a memory lives and where recall finds it. The hours
 * are the defaults of `memory.session_idle_hours` and `memory.ttl_hours`.
 */
export const MEMORY_SCOPE_TEXT =
  "`permanent`: kept until forgotten and recalled in every project (the user's preferences, " +
  "global rules); `project`: kept until forgotten, recalled when the request's `project` " +
  "matches (set `project`); `session`: a note for the task at hand, deleted after 24 hours " +
  "without a recall; `ttl`: true until a date, deleted `ttl_seconds` after it is stored " +
  "(default 30 days).";

const REQUIRED_SCOPE =
  `${FIELD_EXPECTATIONS.scope} (required over MCP: choose how long to keep it; ` +
  "`session` and `ttl` memories expire)";

/**
 * The `remember` arguments over MCP: the REST body, except that `scope` has no default. A model
 * that leaves it out would otherwise store the user's lasting facts as `session` memories that
 * vanish a day later; `permanent` as the default would instead keep every scratch note for ever
 * and crowd recall. Required, the choice is the model's, made with the scopes described in the
 * schema, and an omission is an error naming `scope` (REST keeps the seed's default, `session`).
 *
 * @example
 * v.safeParse(mcpRememberInputSchema, { content: "Prefers TypeScript" }).success; // false
 */
export const mcpRememberInputSchema = strictBody(
  { ...rememberInputSchema.entries, scope: v.picklist(MEMORY_SCOPES, REQUIRED_SCOPE) },
  FIELD_EXPECTATIONS.body,
);

/**
 * The `remember_batch` arguments over MCP: up to 1,000 {@link mcpRememberInputSchema} items (so
 * each needs its `scope`), their `type` and `scope` described.
 *
 * @example
 * v.safeParse(mcpRememberBatchInputSchema, { memories: [{ content: "a", scope: "session" }] }).success; // true
 */
export const mcpRememberBatchInputSchema = strictBody(
  {
    memories: v.pipe(
      v.array(describeMemoryKinds(mcpRememberInputSchema), FIELD_EXPECTATIONS.memories),
      v.minLength(1, FIELD_EXPECTATIONS.memories),
      v.maxLength(MAX_REMEMBER_BATCH, FIELD_EXPECTATIONS.memories),
    ),
  },
  FIELD_EXPECTATIONS.body,
);

/**
 * The same schema with every value of its `type` and `scope` parameters explained in their
 * descriptions (after the parameter's own description, if it has one), so that `tools/list`
 * tells the model what each kind and each lifetime means. Validation is unchanged.
 *
 * @example
 * describeMemoryKinds(searchInputSchema); // `scope` described: "Only memories of this scope. `permanent`: …"
 */
export function describeMemoryKinds<S extends ToolInputSchema>(schema: S): S {
  const entries: v.ObjectEntries = {};
  let changed = false;
  for (const [key, entry] of Object.entries(schema.entries)) {
    const text = key === "type" ? MEMORY_TYPE_TEXT : key === "scope" ? MEMORY_SCOPE_TEXT : "";
    if (text === "") {
      entries[key] = entry;
      continue;
    }
    const own = descriptionOf(entry);
    entries[key] = v.pipe(entry, v.description(own === undefined ? text : `${own} ${text}`));
    changed = true;
  }
  if (!changed) return schema;
  return (schema.type === "strict_object"
    ? v.strictObject(entries, schema.message)
    : v.object(entries, schema.message)) as unknown as S;
}

/** The description a parameter's schema (or the schema an `optional` wraps) already carries. */
function descriptionOf(schema: v.GenericSchema): string | undefined {
  const own = v.getDescription(schema as Parameters<typeof v.getDescription>[0]);
  if (own !== undefined) return own;
  const wrapped = (schema as { wrapped?: v.GenericSchema }).wrapped;
  return wrapped === undefined ? undefined : descriptionOf(wrapped);
}
