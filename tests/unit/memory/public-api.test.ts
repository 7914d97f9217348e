import { describe, expect, it } from "vitest";
import * as core from "../../../core/index.js";

describe("public API of the memory core", () => {
  it("exports the service, defaults, schemas and token helpers from the package entry", () => {
    expect(typeof core.MemoryService).toBe("function");
    expect(core.DEFAULT_MEMORY_SERVICE_OPTIONS.recallCandidates).toBe(50);
    expect(typeof core.rememberInputSchema).toBe("object");
    expect(typeof core.describeIssues).toBe("function");
    expect(core.estimateTokens("--- Relevant Memories ---\n")).toBe(8);
    expect(core.CONTEXT_HEADER).toBe("--- Relevant Memories ---\n");
  });
});
