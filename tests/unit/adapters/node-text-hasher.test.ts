import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeTextHasher } from "../../../adapters/system/node-text-hasher.js";
import {
  contentHash,
  contentHashWith,
  PURE_TEXT_HASHER,
} from "../../../core/memory/model/content-key.js";

describe("NodeTextHasher", () => {
  const hasher = new NodeTextHasher();

  it("hashes the UTF-8 bytes of a text as lower-case hex SHA-256", () => {
    expect(hasher.sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(hasher.sha256Hex("")).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  it("gives every text the hash of the core's pure implementation, so stored keys still match", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        expect(hasher.sha256Hex(text)).toBe(PURE_TEXT_HASHER.sha256Hex(text));
      }),
    );
  });

  it("makes the same content key as contentHash, after normalisation", async () => {
    const content = "  deploy on\n\n Fridays ";
    expect(contentHashWith(hasher, content)).toBe(await contentHash("deploy on Fridays"));
  });
});
