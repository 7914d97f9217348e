import { describe, expect, it } from "vitest";
import { readNameParts, SourceText } from "../../../../adapters/sql/source-text.js";

describe("SourceText", () => {
  it("maps UTF-8 byte offsets to string indices", () => {
    const src = new SourceText("SELECT 'ü', x");
    expect(src.indexOfByte(13)).toBe(12);
    expect(src.text[src.indexOfByte(13)]).toBe("x");
  });

  it("maps code-point offsets past astral characters to string indices", () => {
    const src = new SourceText("'😀' x");
    expect(src.text[src.indexOfCodePoint(4)]).toBe("x");
  });

  it("gives 1-based lines and code-point columns", () => {
    const src = new SourceText("SELECT 1\nFROM '😀' x");
    expect(src.position(src.text.indexOf("x"))).toEqual({ line: 2, column: 10 });
    expect(src.position(0)).toEqual({ line: 1, column: 1 });
  });
});

describe("readNameParts", () => {
  it("reads dotted names as written and unquotes each part", () => {
    expect(readNameParts('FROM "My".Tab t', 5, 2)).toEqual(["My", "Tab"]);
    expect(readNameParts("x [dbo] . [a b]", 2, 2)).toEqual(["dbo", "a b"]);
    expect(readNameParts('"a""b"', 0, 1)).toEqual(['a"b']);
  });

  it("stops after the requested number of parts", () => {
    expect(readNameParts("a.b.c", 0, 2)).toEqual(["a", "b"]);
  });
});
