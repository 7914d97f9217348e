import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, runMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

describe("memsvc command line", () => {
  it("prints usage on --help and the version on --version, exit 0", () => {
    const help = runMemsvc(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: memsvc <command>");
    expect(help.stdout).toContain("serve [--config FILE]");
    const version = runMemsvc(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers unknown commands, unknown flags and a missing command with usage on stderr and exit 2", () => {
    for (const args of [["frobnicate"], ["serve", "--port", "1"], [], ["serve", "--config"]]) {
      const run = runMemsvc(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain("Usage: memsvc <command>");
      expect(run.stdout).toBe("");
    }
  });

  it("exits 1 before binding and lists every configuration problem, one per line", () => {
    const dir = makeTempDir();
    writeFileSync(
      join(dir, "bad.yaml"),
      "api:\n  listen_addr: nowhere\nrecall:\n  weights:\n    similarity: 0.9\nembedder:\n  provider: magic\n",
    );
    const run = runMemsvc(
      ["serve", "--config", "bad.yaml"],
      { MEMSVC_RECALL_CANDIDATES: "many", MEMSVC_API_LISTEN_ADDR: "" },
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines[0]).toBe("memsvc: invalid configuration (4 problems):");
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^api\.listen_addr: expected :PORT or HOST:PORT/),
      expect.stringMatching(
        /^embedder\.provider: expected local, cohere, ollama or openai, got "magic"/,
      ),
      expect.stringMatching(
        /^recall\.candidates \(from MEMSVC_RECALL_CANDIDATES\): expected an integer/,
      ),
      expect.stringMatching(/^recall\.weights: expected weights summing to 1/),
    ]);
  });

  it("exits 1 naming a config file that does not exist", () => {
    const run = runMemsvc(["serve", "--config=/nonexistent/memsvc.yaml"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("config file /nonexistent/memsvc.yaml (--config): not found");
  });

  it("exits 1 with a clear message when the port is taken, leaving no Chroma behind", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = runMemsvc(["serve"], { MEMSVC_API_LISTEN_ADDR: `127.0.0.1:${port}` });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot listen on 127.0.0.1:${port}: address already in use`);
      // The port is bound before the store opens (issue 26): no Chroma was ever started.
      expect(run.stderr).not.toContain("embedded Chroma started");
      expect(run.stderr).not.toContain("memories loaded");
    } finally {
      blocker.close();
    }
  });
});
