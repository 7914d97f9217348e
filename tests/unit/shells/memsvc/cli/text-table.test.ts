import { describe, expect, it } from "vitest";
import { textTable } from "../../../../../shells/memsvc/cli/client/text-table.js";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HEADER = ["id", "created", "type", "scope", "project", "content"];
const LONG =
  "Deploys to production happen on Tuesdays after the standup, and the on-call engineer " +
  "watches the dashboards for an hour";
const ROWS = [
  ["377159a7-6744-4963-b3b8-6f17cd735440", "just now", "rule", "session", "", LONG],
  ["362128a5-15b8-4d7a-9994-97f8236950ec", "3 h ago", "preference", "permanent", "web", "Short"],
];

describe("textTable", () => {
  it("puts the last column on its own line when a narrow terminal leaves it little room", () => {
    const lines = textTable(HEADER, ROWS, 80).trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^id\s+created\s+type\s+scope\s+project$/);
    expect(lines[1]).toBe("  content");
    expect(lines[2]).toMatch(/^377159a7-\S+\s+just now\s+rule\s+session$/);
    expect(lines[3]).toMatch(/^ {2}Deploys to production happen on Tuesdays after the .*…$/);
    expect(lines[5]).toBe("  Short");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("keeps one line per row when the last column has room, cut to the width", () => {
    const lines = textTable(HEADER, ROWS, 160).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/session\s+Deploys to production .*…$/);
    expect(lines[1]).toHaveLength(160);
  });

  it("cuts nothing without a width (a pipe), and stacks nothing that fits", () => {
    expect(textTable(HEADER, ROWS, Number.POSITIVE_INFINITY)).toContain(LONG);
    const keys = textTable(
      ["id", "tenant", "access", "created", "expires"],
      [["k_3f9c0a1b2c3d4e5f", "acme", "read-only", "2026-11-29T10:00:00.000Z", "never"]],
    );
    expect(keys.trimEnd().split("\n")).toHaveLength(2);
  });

  it("counts terminal columns: wide CJK and emoji take two, and no cut splits a character", () => {
    const columns = (line: string) =>
      [...line].reduce(
        (sum, char) => sum + (/[\u3000-\u9fff\u{1f300}-\u{1f64f}]/u.test(char) ? 2 : 1),
        0,
      );
    const lines = textTable(
      ["project", "content"],
      [
        ["計画", "日本語のメモ".repeat(10)],
        ["web", `emoji ${"😀".repeat(40)}`],
      ],
      60,
    )
      .trimEnd()
      .split("\n");
    // The wide project name is padded by its columns, so the content column lines up.
    const at = (line = "", text: string) => columns(line.slice(0, line.indexOf(text)));
    expect(at(lines[1], "日本語")).toBe(at(lines[2], "emoji"));
    expect(at(lines[0], "content")).toBe(at(lines[2], "emoji"));
    for (const line of lines) {
      expect(columns(line), line).toBeLessThanOrEqual(60);
      // A cut inside a surrogate pair leaves a lone surrogate, printed as U+FFFD.
      expect(line, line).not.toMatch(LONE_SURROGATE);
    }
    expect(lines[2]).toMatch(/😀…$/);
  });
});
