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
