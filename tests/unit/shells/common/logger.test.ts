import { describe, expect, it } from "vitest";
import { createJsonLogger, createTextLogger } from "../../../../shells/common/logger.js";

const at = () => new Date("2026-11-28T10:00:00.123Z");

describe("the loggers", () => {
  it("write text for people: time, level, message, then key=value, quoted when needed", () => {
    const lines: string[] = [];
    const log = createTextLogger({ level: "info", now: at, write: (l) => lines.push(l) });
    log.debug("dropped below the level");
    log.info("listening", {
      address: "127.0.0.1:8080",
      store: "embedded Chroma at /data",
      ui: undefined,
    });
    log.error("embedder failed", { url: "http://localhost:11434", cause: 'ECONNREFUSED "x"' });
    expect(lines).toEqual([
      '10:00:00.123 INFO  listening address=127.0.0.1:8080 store="embedded Chroma at /data"\n',
      '10:00:00.123 ERROR embedder failed url=http://localhost:11434 cause="ECONNREFUSED \\"x\\""\n',
    ]);
  });

  it("colour only the level when asked", () => {
    const lines: string[] = [];
    createTextLogger({ color: true, now: at, write: (l) => lines.push(l) }).warn("slow");
    expect(lines).toEqual(["10:00:00.123 \u001b[33mWARN \u001b[0m slow\n"]);
  });

  it("write the same fields as JSON lines for machines", () => {
    const lines: string[] = [];
    createJsonLogger({ now: at, write: (l) => lines.push(l) }).info("listening", { port: 8080 });
    expect(JSON.parse(lines[0] as string)).toEqual({
      time: "2026-11-28T10:00:00.123Z",
      level: "info",
      msg: "listening",
      port: 8080,
    });
  });
});
