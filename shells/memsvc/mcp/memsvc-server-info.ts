import type { McpServerInfo } from "../../common/mcp/mcp-tool.js";

/**
 * What memsvc tells a model in the MCP `initialize` result: when to recall, what is worth
 * remembering (and with which scope), and how to correct or forget. The tools' own descriptions
 * and parameter schemas carry the details.
 */
export const MEMSVC_INSTRUCTIONS = [
  "Long-term memory that outlives this conversation.",
  "Recall: at the start of a task, and whenever the user refers to earlier work, their " +
    "preferences or a project's conventions, call `recall` with the user's message (and " +
    "`project` when you know it) and use the context it returns. `search` finds specific " +
    "memories with their ids and relevance scores.",
  "Remember: durable, reusable knowledge: the user's preferences, rules and conventions, " +
    "decisions and why, procedures that worked, facts about their systems. One self-contained " +
    "statement per memory that makes sense without this conversation. Do not store secrets, " +
    "credentials, small talk or what recall already gave you.",
  "Every `remember` needs a `scope`: `permanent` for what holds everywhere (preferences, " +
    "global rules), `project` with `project` for one code base, `session` for notes on the " +
    "task at hand (deleted after a day without a recall), `ttl` with `ttl_seconds` for what " +
    "stops being true. Pick a `type`: rule, fact, episode, procedure or preference.",
  "Correct and forget: when a memory is wrong or out of date, find its id (`recall` with " +
    "`items: true` lists the ids and dates of what it returned; `search`, `list_memories`; " +
    "`get_memory` shows all its fields), then `update_memory` it rather than " +
    "storing a contradiction, or `forget` it. When the user asks you to forget something, do " +
    "it; `delete_memories` removes many by filter (run it with `dry_run: true` first).",
].join("\n\n");

/**
 * The name memsvc reports in `initialize`, with the package version and
 * {@link MEMSVC_INSTRUCTIONS}: the same over HTTP (`POST /mcp`) and stdio (`memsvc mcp`).
 *
 * @example
 * memsvcServerInfo("0.1.0"); // { name: "memsvc", version: "0.1.0", instructions: "Long-term memory …" }
 */
export function memsvcServerInfo(version: string): McpServerInfo {
  return { name: "memsvc", version, instructions: MEMSVC_INSTRUCTIONS };
}
