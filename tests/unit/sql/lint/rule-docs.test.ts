import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_DOCS_DIR, renderRuleDocs } from "../../../../scripts/generate-rule-docs.js";

describe("docs/rules", () => {
  const pages = renderRuleDocs();

  it("has exactly one page per registered rule plus the index", () => {
    const files = readdirSync(RULE_DOCS_DIR)
      .filter((f) => f.endsWith(".md"))
      .sort();
    expect(files).toEqual([...pages.keys()].sort());
  });

  for (const [name, text] of pages) {
    it(`${name} matches the rule metadata (run npx tsx scripts/generate-rule-docs.ts)`, () => {
      expect(readFileSync(`${RULE_DOCS_DIR}${name}`, "utf8")).toBe(text);
    });
  }
});
