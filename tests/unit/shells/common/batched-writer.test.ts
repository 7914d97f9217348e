import { afterEach, describe, expect, it, vi } from "vitest";
import { createBatchedWriter } from "../../../../shells/common/batched-writer.js";

describe("createBatchedWriter", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes the lines of a batch in one call, in order, once the delay has passed", () => {
    vi.useFakeTimers();
    const sink = vi.fn<(text: string) => void>();
    const out = createBatchedWriter({ sink, maxDelayMs: 50 });
    out.write("a\n");
    out.write("b\n");
    out.write("c\n");
    expect(sink).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(sink.mock.calls).toEqual([["a\nb\nc\n"]]);
    out.write("d\n");
    vi.advanceTimersByTime(50);
    expect(sink.mock.calls).toEqual([["a\nb\nc\n"], ["d\n"]]);
  });

  it("writes at once when the batch reaches its size", () => {
    vi.useFakeTimers();
    const sink = vi.fn<(text: string) => void>();
    const out = createBatchedWriter({ sink, maxChars: 6 });
    out.write("abc\n");
    expect(sink).not.toHaveBeenCalled();
    out.write("de\n");
    expect(sink.mock.calls).toEqual([["abc\nde\n"]]);
    // The timer of the written batch is gone: nothing more is written later.
    vi.advanceTimersByTime(1000);
    expect(sink).toHaveBeenCalledTimes(1);
  });

  it("writes what it holds on flush, and nothing when it holds nothing", () => {
    const sink = vi.fn<(text: string) => void>();
    const out = createBatchedWriter({ sink });
    out.flush();
    expect(sink).not.toHaveBeenCalled();
    out.write("x\n");
    out.flush();
    expect(sink.mock.calls).toEqual([["x\n"]]);
  });
});
