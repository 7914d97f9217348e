import { toJsonSchema } from "@valibot/to-json-schema";
import { describe, expect, it } from "vitest";
import {
  deleteMatchingInputSchema,
  listInputSchema,
  parseInput,
  recallInputSchema,
  rememberBatchInputSchema,
  rememberInputSchema,
  searchInputSchema,
  suggestField,
  updateInputSchema,
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

describe("unknown request fields (issue 11)", () => {
  it('rejects {"scop": "permanent"} with a suggestion instead of storing a session memory', async () => {
    const { service, store } = await memoryFixture();
    await expect(
      service.remember({ content: "keep me", scop: "permanent" } as never),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: 'unknown field "scop"; did you mean "scope"?',
    });
    expect(await store.count()).toBe(0);
  });

  it("names an unknown field without a suggestion when nothing known is close", () => {
    expect(messageOf(() => parseInput(rememberInputSchema, { content: "x", colour: "b" }))).toBe(
      'unknown field "colour"',
    );
  });

  it("names the item of a batch that holds the unknown field", () => {
    expect(
      messageOf(() =>
        parseInput(rememberBatchInputSchema, {
          memories: [{ content: "a" }, { content: "b", tagz: ["x"] }],
        }),
      ),
    ).toBe('memories[1]: unknown field "tagz"; did you mean "tags"?');
  });

  it.each([
    [
      recallInputSchema,
      { message: "m", budjet: 5 },
      'unknown field "budjet"; did you mean "budget"?',
    ],
    [searchInputSchema, { message: "m", limt: 5 }, 'unknown field "limt"; did you mean "limit"?'],
    [searchInputSchema, { mesage: "m" }, 'unknown field "mesage"; did you mean "message"?'],
    [listInputSchema, { projet: "p" }, 'unknown field "projet"; did you mean "project"?'],
    [
      deleteMatchingInputSchema,
      { dryrun: true },
      'unknown field "dryrun"; did you mean "dry_run"?',
    ],
    [updateInputSchema, { Content: "x" }, 'unknown field "Content"; did you mean "content"?'],
  ])("rejects an unknown field of every body (%#)", (schema, input, message) => {
    expect(messageOf(() => parseInput(schema, input))).toContain(message);
  });

  it("says so in the JSON Schema of each body", () => {
    for (const schema of [rememberInputSchema, recallInputSchema, searchInputSchema]) {
      expect(toJsonSchema(schema, { errorMode: "ignore" })).toMatchObject({
        additionalProperties: false,
      });
    }
  });
});

describe("suggestField", () => {
  const known = ["content", "type", "scope", "tags", "project", "confidence", "ttl_seconds"];

  it.each([
    ["scop", "scope"],
    ["Scope", "scope"],
    ["tag", "tags"],
    ["contnet", "content"],
    ["projects", "project"],
    ["ttl_second", "ttl_seconds"],
  ])("suggests %s → %s", (name, expected) => {
    expect(suggestField(name, known)).toBe(expected);
  });

  it.each(["colour", "id", "x", "conf", "a".repeat(1000)])("suggests nothing for %s", (name) => {
    expect(suggestField(name, known)).toBeUndefined();
  });
});
