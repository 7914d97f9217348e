import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../core/memory/model/sha256.js";

async function webCrypto(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("sha256Hex", () => {
  it("matches the FIPS 180-4 examples", () => {
    const hex = (s: string) => sha256Hex(new TextEncoder().encode(s));
    expect(hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("equals Web Crypto's digest for any bytes, across block boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        expect(sha256Hex(bytes)).toBe(await webCrypto(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
