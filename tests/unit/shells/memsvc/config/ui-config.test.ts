import { describe, expect, it } from "vitest";
import { loadConfig, type LoadConfigResult } from "../../../../../shells/memsvc/config/index.js";

const cwd = "/nonexistent-dir";

function ui(env: Record<string, string>) {
  const result = loadConfig({ env, cwd });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config.ui;
}

function problems(result: LoadConfigResult): readonly string[] {
  if (result.ok) throw new Error("expected problems, got a valid config");
  return result.problems;
}

describe("the memory browser's configuration (ui.*)", () => {
  it("serves the browser at /ui by default", () => {
    expect(ui({})).toEqual({ enabled: true, path: "/ui" });
  });

  it("turns it off and moves it through MEMSVC_UI_ENABLED and MEMSVC_UI_PATH", () => {
    expect(ui({ MEMSVC_UI_ENABLED: "false" }).enabled).toBe(false);
    expect(ui({ MEMSVC_UI_ENABLED: "TRUE" }).enabled).toBe(true);
    expect(ui({ MEMSVC_UI_PATH: "/admin/memories" }).path).toBe("/admin/memories");
    expect(ui({ MEMSVC_UI_PATH: "/" }).path).toBe("/");
  });

  it("names the variable when the switch is not true or false", () => {
    expect(problems(loadConfig({ env: { MEMSVC_UI_ENABLED: "yes" }, cwd }))).toEqual([
      'ui.enabled (from MEMSVC_UI_ENABLED): expected true or false, got "yes"',
    ]);
  });

  it("refuses a path that is malformed or would shadow an API route", () => {
    for (const path of ["ui", "/ui/", "/u i", "//ui"]) {
      expect(problems(loadConfig({ env: { MEMSVC_UI_PATH: path }, cwd }))[0], path).toMatch(
        /^ui\.path \(from MEMSVC_UI_PATH\): expected a path such as \/ui/,
      );
    }
    for (const path of ["/v1", "/v1/ui", "/mcp", "/healthz", "/metrics"]) {
      expect(problems(loadConfig({ env: { MEMSVC_UI_PATH: path }, cwd }))[0], path).toMatch(
        /expected a path that is not an API route/,
      );
    }
  });
});
