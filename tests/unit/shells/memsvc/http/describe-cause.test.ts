import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../../../core/errors.js";
import { describeCause } from "../../../../../shells/memsvc/http/error-response.js";

describe("describeCause, for the log (issue 24)", () => {
  it("tells a coded error by its messages, each cause naming what failed, without stacks", () => {
    const vendor = new TypeError("fetch failed");
    const remote = new Error("Chroma at http://127.0.0.1:1 cannot be reached", { cause: vendor });
    const error = new AgentServicesError("store_unavailable", "vector store unavailable", {
      cause: remote,
    });
    expect(describeCause(error)).toBe(
      "vector store unavailable\n" +
        "caused by: Chroma at http://127.0.0.1:1 cannot be reached\n" +
        "caused by: TypeError: fetch failed",
    );
  });

  it("tells anything else (a bug) with its stack", () => {
    const bug = new TypeError("cannot read properties of undefined");
    expect(describeCause(bug)).toBe(bug.stack);
    expect(describeCause("thrown text")).toBe("thrown text");
  });
});
