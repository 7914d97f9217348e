// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Vendor SDKs and frameworks that only adapters and shells may import. */
const VENDOR_SDKS = [
  "chromadb",
  "chromadb-js-bindings-*",
  "cohere-ai",
  "cohere-ai/*",
  "hono",
  "hono/*",
  "@hono/*",
  "@modelcontextprotocol/*",
  "tsyringe",
  "reflect-metadata",
  "yaml",
];
/** Node built-ins that do I/O or read the process: never in the pure core. */
const NODE_IO = ["node:*", "fs", "fs/*", "http", "https", "net", "child_process", "os", "process"];

/**
 * The shells are grouped by service: memsvc and sqlsvc never import each other, and what both use
 * lives in shells/common/, which imports neither (tests/unit/boundary/ also checks dynamic imports).
 */
function shellBoundaries() {
  const rule = (files, group, message) => ({
    files,
    rules: { "no-restricted-imports": ["error", { patterns: [{ group, message }] }] },
  });
  return [
    rule(["shells/memsvc/**/*.ts"], ["**/sqlsvc/**"], "memsvc must not import sqlsvc's shell."),
    rule(["shells/sqlsvc/**/*.ts"], ["**/memsvc/**"], "sqlsvc must not import memsvc's shell."),
    rule(
      ["shells/common/**/*.ts"],
      ["**/memsvc/**", "**/sqlsvc/**"],
      "shells/common/ is shared: it must not import either service.",
    ),
  ];
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly" },
    },
  },
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Dependency direction: the core imports only the core and pure computation libraries.
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/adapters/**", "**/shells/**"],
              message: "core/ must not import adapters or shells (dependencies point inward).",
            },
            { group: VENDOR_SDKS, message: "core/ must not import vendor SDKs or frameworks." },
            { group: NODE_IO, message: "core/ is pure: no I/O modules." },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "core/ must not read the process (env, argv): take options." },
        { name: "fetch", message: "core/ does no I/O." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "core/ reads time from the Clock port." },
      ],
    },
  },
  ...shellBoundaries(),
  {
    files: ["adapters/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/shells/**", "hono", "hono/*", "@hono/*", "tsyringe"],
              message: "adapters/ must not import shells or shell frameworks.",
            },
          ],
        },
      ],
    },
  },
);
