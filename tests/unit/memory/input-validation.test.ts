import { toJsonSchema as toValibotJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  memoryIdSchema,
  parseInput,
  parseMemoryId,
  recallInputSchema,
  rememberInputSchema,
  searchInputSchema,
} from "../../../core/memory/index.js";
import { memoryFixture } from "./memory-fixture.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toMatchObject({ code: "invalid_input" });
    return (error as Error).message;
  }
  throw new Error("expected invalid_input");
}

describe("remember input", () => {
  it("applies the seed's defaults", () => {
    expect(parseInput(rememberInputSchema, { content: "x" })).toEqual({
      content: "x",
      type: "fact",
      scope: "session",
      tags: [],
      project: "",
      confidence: 1,
    });
  });

  it.each([
    [{}, "content: is required (expected a non-empty string)"],
    [{ content: "" }, 'content: expected a non-empty string, got ""'],
    [{ content: " \n\t " }, 'content: expected a non-empty string, got " \\n\\t "'],
    [{ content: 42 }, "content: expected a non-empty string, got 42"],
    [{ content: "x", confidence: 1.5 }, "confidence: expected a number between 0 and 1, got 1.5"],
    [{ content: "x", confidence: -0.1 }, "confidence: expected a number between 0 and 1, got -0.1"],
    [
      { content: "x", confidence: "0.5" },
      'confidence: expected a number between 0 and 1, got "0.5"',
    ],
    [
      { content: "x", type: "memo" },
      'type: expected one of "rule", "fact", "episode", "procedure", "preference", got "memo"',
    ],
    [
      { content: "x", scope: null },
      'scope: expected one of "permanent", "project", "session", "ttl", got null',
    ],
    [{ content: "x", tags: "a,b" }, 'tags: expected an array of strings, got "a,b"'],
    [{ content: "x", tags: ["a", 7] }, "tags[1]: expected a string, got 7"],
    [{ content: "x", project: 3 }, "project: expected a string, got 3"],
    [
      { content: "x", scope: "ttl", ttl_seconds: 0 },
      "ttl_seconds: expected an integer from 1 to 3155760000 (seconds, at most 100 years), got 0",
    ],
    [
      { content: "x", scope: "ttl", ttl_seconds: 1.5 },
      "ttl_seconds: expected an integer from 1 to 3155760000 (seconds, at most 100 years), got 1.5",
    ],
    [
      { content: "x", scope: "ttl", ttl_seconds: Number.MAX_SAFE_INTEGER },
      "ttl_seconds: expected an integer from 1 to 3155760000 (seconds, at most 100 years), got 9007199254740991",
    ],
    [null, "body: expected a JSON object, got null"],
    [[], "body: expected a JSON object, got an array"],
    ["text", 'body: expected a JSON object, got "text"'],
  ])("rejects %j with a message naming the field: %s", (input, message) => {
    expect(messageOf(() => parseInput(rememberInputSchema, input))).toBe(message);
  });

  it("accepts the boundary confidences 0 and 1", () => {
    expect(parseInput(rememberInputSchema, { content: "x", confidence: 0 }).confidence).toBe(0);
    expect(parseInput(rememberInputSchema, { content: "x", confidence: 1 }).confidence).toBe(1);
  });

  it("reports several bad fields in one message, one clause per field", () => {
    expect(
      messageOf(() => parseInput(rememberInputSchema, { content: "", confidence: 2, tags: {} })),
    ).toBe(
      'content: expected a non-empty string, got ""; tags: expected an array of strings, got an object; confidence: expected a number between 0 and 1, got 2',
    );
  });

  it("shortens a long received string instead of echoing it whole", () => {
    const message = messageOf(() =>
      parseInput(rememberInputSchema, { content: "x", type: "y".repeat(5000) }),
    );
    expect(message.length).toBeLessThan(200);
    expect(message).toContain("type: expected one of");
  });
});

describe("recall and search input", () => {
  it("defaults recall's budget to 2000 and project to empty", () => {
    expect(parseInput(recallInputSchema, { message: "m" })).toEqual({
      message: "m",
      project: "",
      budget: 2000,
    });
  });

  it("defaults search's limit to 10 and project to empty", () => {
    expect(parseInput(searchInputSchema, { message: "m" })).toEqual({
      message: "m",
      limit: 10,
      project: "",
    });
  });

  it.each([
    [{ message: "m", budget: 0 }, "budget: expected an integer of at least 1 (tokens), got 0"],
    [
      { message: "m", budget: 10.5 },
      "budget: expected an integer of at least 1 (tokens), got 10.5",
    ],
    [{ message: "   " }, 'message: expected a non-empty string, got "   "'],
    [{ budget: 5 }, "message: is required (expected a non-empty string)"],
    [
      { message: "m", context_neighbours: 11 },
      "context_neighbours: expected an integer between 0 and 10, got 11",
    ],
    [
      { message: "m", context_neighbours: 1.5 },
      "context_neighbours: expected an integer between 0 and 10, got 1.5",
    ],
  ])("rejects recall body %j: %s", (input, message) => {
    expect(messageOf(() => parseInput(recallInputSchema, input))).toBe(message);
  });

  it.each([
    [{ message: "m", limit: 0 }, "limit: expected an integer between 1 and 1000, got 0"],
    [{ message: "m", limit: 1001 }, "limit: expected an integer between 1 and 1000, got 1001"],
    [{ message: "m", limit: "5" }, 'limit: expected an integer between 1 and 1000, got "5"'],
    [{ message: "m", project: false }, "project: expected a string, got false"],
  ])("rejects search body %j: %s", (input, message) => {
    expect(messageOf(() => parseInput(searchInputSchema, input))).toBe(message);
  });

  it("accepts the limit boundaries 1 and 1000 and a budget of 1", () => {
    expect(parseInput(searchInputSchema, { message: "m", limit: 1 }).limit).toBe(1);
    expect(parseInput(searchInputSchema, { message: "m", limit: 1000 }).limit).toBe(1000);
    expect(parseInput(recallInputSchema, { message: "m", budget: 1 }).budget).toBe(1);
  });
});

describe("memory ids", () => {
  it("accepts a UUID of any case and returns it in lower case", () => {
    expect(parseMemoryId("0B6F3C1E-6D1C-4F1E-9A57-2F0D7F4B8C11")).toBe(
      "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11",
    );
  });

  it.each([
    ["not-a-uuid", 'id: expected a UUID, got "not-a-uuid"'],
    ["", 'id: expected a UUID, got ""'],
    [
      "0b6f3c1e6d1c4f1e9a572f0d7f4b8c11",
      'id: expected a UUID, got "0b6f3c1e6d1c4f1e9a572f0d7f4b8c11"',
    ],
  ])("rejects %j naming the id field", (id, message) => {
    expect(messageOf(() => parseMemoryId(id))).toBe(message);
  });
});

describe("the service validates what it is given", () => {
  it("rejects ttl_seconds on a memory whose scope is not ttl instead of silently ignoring it", async () => {
    const { service } = await memoryFixture();
    await expect(service.remember({ content: "x", ttl_seconds: 60 })).rejects.toMatchObject({
      code: "invalid_input",
      message: 'ttl_seconds: only applies to scope "ttl", got scope "session"',
    });
  });

  it("rejects an invalid recall, search, get and delete input before touching the store", async () => {
    const { service, embedder } = await memoryFixture();
    await expect(service.recall({ message: "" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(service.search({ message: "m", limit: 0 })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(service.get("x")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(service.delete("x")).rejects.toMatchObject({ code: "invalid_input" });
    expect(embedder.calls).toEqual([]);
  });
});

describe("schemas as documentation", () => {
  // As the OpenAPI document and the MCP tool catalogue convert them: a check no JSON Schema
  // keyword states (content's normalised length) is left to the field's description.
  const toJsonSchema = (schema: Parameters<typeof toValibotJsonSchema>[0]) =>
    toValibotJsonSchema(schema, { errorMode: "ignore" });

  it("convert to JSON Schema with their defaults, so the OpenAPI document comes from them", () => {
    const remember = toJsonSchema(rememberInputSchema) as {
      properties: Record<string, { default?: unknown; description?: string }>;
      required: string[];
    };
    expect(remember.properties["content"]?.description).toContain(
      "at most 1048576 characters once Unicode-normalised",
    );
    expect(remember.required).toEqual(["content"]);
    expect(remember.properties["scope"]?.default).toBe("session");
    expect(remember.properties["confidence"]).toMatchObject({ minimum: 0, maximum: 1, default: 1 });
    expect(toJsonSchema(recallInputSchema)).toMatchObject({
      properties: { budget: { type: "integer", minimum: 1, default: 2000 } },
    });
    expect(toJsonSchema(searchInputSchema)).toMatchObject({
      properties: { limit: { type: "integer", minimum: 1, maximum: 1000, default: 10 } },
    });
    expect(toJsonSchema(memoryIdSchema)).toMatchObject({ type: "string", format: "uuid" });
    expect(v.is(memoryIdSchema, "x")).toBe(false);
  });
});
