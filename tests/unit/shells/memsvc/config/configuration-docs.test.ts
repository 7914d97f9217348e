import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_KEYS, loadConfig } from "../../../../../shells/memsvc/config/index.js";

const root = fileURLToPath(new URL("../../../../../", import.meta.url));

describe("configuration documentation", () => {
  it("lists every key with its environment variable in docs/configuration.md", () => {
    const doc = readFileSync(`${root}docs/configuration.md`, "utf8");
    for (const key of CONFIG_KEYS) {
      const row = new RegExp(
        `\\|\\s*\`${key.path.replaceAll(".", "\\.")}\`\\s*\\|\\s*\`${key.env}\`\\s*\\|`,
      );
      expect(doc, key.path).toMatch(row);
    }
  });

  it("ships an example file that is valid and spells out the defaults", () => {
    const result = loadConfig({ configPath: "memsvc.example.yaml", env: {}, cwd: root });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    const defaults = loadConfig({ env: {}, cwd: "/nonexistent-dir" });
    if (!defaults.ok) throw new Error(defaults.problems.join("\n"));
    expect({ ...result.config, source: undefined }).toEqual({
      ...defaults.config,
      source: undefined,
      vectorStore: result.config.vectorStore,
    });
    expect(result.config.vectorStore).toEqual({
      kind: "chroma-embedded",
      path: `${root}data/chroma`,
      collection: "memories",
    });
  });

  it("names every key in memsvc.example.yaml, set or commented out", () => {
    const text = readFileSync(`${root}memsvc.example.yaml`, "utf8");
    // Commented-out keys (`# auth_token: …`, `#   memory_quota: …`) read as set.
    const uncommented = text.replace(/^(\s*)# ?(\s*)(?=[a-z_]+:)/gm, "$1$2");
    const example = parse(uncommented) as Record<string, unknown>;
    for (const key of CONFIG_KEYS) {
      const value = key.path
        .split(".")
        .reduce<unknown>(
          (at, name) => (at as Record<string, unknown> | undefined)?.[name],
          example,
        );
      expect(value, key.path).toBeDefined();
    }
  });
});
