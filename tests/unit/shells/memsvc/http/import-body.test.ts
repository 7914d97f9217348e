import { describe, expect, it } from "vitest";
import { ImportBody, type ImportLimits } from "../../../../../shells/memsvc/http/import-body.js";

async function* source(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function read(body: ImportBody): Promise<string> {
  let text = "";
  for await (const chunk of body) text += new TextDecoder().decode(chunk);
  return text;
}

const LIMITS: ImportLimits = {
  maxBytes: 1_000,
  maxLines: 3,
  maxLineBytes: 50,
  timeIsUp: () => false,
};

describe("ImportBody (issue 26)", () => {
  it("passes a body within its limits as it is, counting its lines", async () => {
    const body = new ImportBody(source("a\nb", "\nc"), LIMITS);
    expect(await read(body)).toBe("a\nb\nc");
    expect([body.linesPassed, body.stopped]).toEqual([3, undefined]);
  });

  it("stops after the last line allowed, at its newline, and says so", async () => {
    const body = new ImportBody(source("a\nb\nc\nd\ne\n"), LIMITS);
    expect(await read(body)).toBe("a\nb\nc\n");
    expect([body.linesPassed, body.stopped]).toEqual([3, "line_limit"]);
  });

  it("does not call a body of exactly the line limit incomplete", async () => {
    const body = new ImportBody(source("a\nb\n", "c\n"), LIMITS);
    expect(await read(body)).toBe("a\nb\nc\n");
    expect(body.stopped).toBeUndefined();
  });

  it("stops at the last whole line within the byte limit, dropping the part of a line after it", async () => {
    const body = new ImportBody(source("aaaa\nbbbb\ncc", "cc\n"), {
      ...LIMITS,
      maxBytes: 12,
      maxLines: 10,
    });
    expect(await read(body)).toBe("aaaa\nbbbb\n");
    expect([body.linesPassed, body.stopped]).toEqual([2, "size_limit"]);
  });

  it("stops when the time is up, dropping the chunk in hand, at a line boundary", async () => {
    let chunks = 0;
    const body = new ImportBody(source("a\nb", "b\nc\n", "d\n"), {
      ...LIMITS,
      maxLines: 10,
      timeIsUp: () => ++chunks > 2,
    });
    expect(await read(body)).toBe("a\nbb\nc\n");
    expect([body.linesPassed, body.stopped]).toEqual([3, "time_limit"]);
  });

  it("passes a line over the line limit on as it comes, and stops only after it", async () => {
    let calls = 0;
    const long = "x".repeat(40);
    const body = new ImportBody(source("a\n", long, long, long, "\nb\n", "c\n"), {
      ...LIMITS,
      maxLines: 10,
      timeIsUp: () => ++calls > 3,
    });
    expect(await read(body)).toBe(`a\n${long}${long}${long}\nb\n`);
    expect([body.linesPassed, body.stopped]).toEqual([3, "time_limit"]);
  });
});
