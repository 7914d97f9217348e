import * as v from "valibot";
import { AgentServicesError } from "../../../../../core/errors.js";
import { defineMcpTool, READ_ONLY_TOOL } from "../../../../../shells/common/mcp/mcp-tool.js";
import { currentRequestId } from "../../../../../shells/common/http/request-id.js";

/**
 * Two tools for the MCP plumbing tests. `shout` upper-cases `text` (with HTML and non-ASCII in
 * its result), fails on `fail`, crashes on `crash` (with a message that must never reach a
 * client), and answers the request id on `who`. `later` is async: it answers on `text: "ok"` and
 * throws a coded `invalid_input` error otherwise.
 */
export const TEST_TOOLS = [
  defineMcpTool({
    name: "shout",
    description: "Upper-cases text; 'fail' fails, 'crash' crashes, 'who' answers the request id.",
    input: v.object({ text: v.string("parameter 'text' is required and must be a string") }),
    annotations: READ_ONLY_TOOL,
    handler: ({ text }) => {
      if (text === "crash") throw new Error("bug at /srv/secret/path");
      if (text === "fail") return { ok: false, error: "cannot shout that" };
      if (text === "who") return { ok: true, result: { request_id: currentRequestId() ?? null } };
      return {
        ok: true,
        result: {
          text: text.toUpperCase(),
          html: "<b>&</b>",
          nested: { list: [1, "é"] },
        },
      };
    },
  }),
  defineMcpTool({
    name: "later",
    description: "Async: 'ok' answers, anything else is refused as invalid input.",
    input: v.object({ text: v.optional(v.string()) }),
    annotations: READ_ONLY_TOOL,
    handler: async ({ text }) => {
      await Promise.resolve();
      if (text === "ok") return { ok: true, result: { later: true } };
      throw new AgentServicesError("invalid_input", "content: expected text");
    },
  }),
];
