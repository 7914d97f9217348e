import { describe, expect, it } from "vitest";
import { JSON_LAYOUT_UNKNOWN, JsonTextCursor } from "../../../../adapters/sql/json-text-cursor.js";

/** The keys and scalar values of a flat object, read with the cursor's primitives. */
class FlatObject extends JsonTextCursor {
  read(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.expect(123);
    if (this.closes(125)) return out;
    do {
      const key = this.key();
      const c = this.peek();
      if (c === 123 || c === 91) {
        this.skipValue();
        out[key] = "(skipped)";
      } else {
        out[key] = this.scalar();
      }
    } while (!this.separator(125));
    return out;
  }
}

describe("JsonTextCursor", () => {
  it("reads compact JSON's keys, strings, numbers and literals, and skips containers unread", () => {
    const text =
      '{"a":"x\\"y","b":-12,"c":1.5e3,"d":true,"e":false,"f":null,"g":{"h":["}",{"i":"]"}]},"j":"é"}';
    expect(new FlatObject(text).read()).toEqual({
      a: 'x"y',
      b: -12,
      c: 1500,
      d: true,
      e: false,
      f: null,
      g: "(skipped)",
      j: "é",
    });
  });

  it("throws JSON_LAYOUT_UNKNOWN at blanks and other text it does not know", () => {
    for (const text of ['{ "a":1}', '{"a" :1}', '{"a":1 }', '{"a":1;', '{"a":"open']) {
      expect(() => new FlatObject(text).read(), text).toThrow(JSON_LAYOUT_UNKNOWN);
    }
  });
});
