// Registers ./record-imports-hooks.mjs; use with `node --import <this file>`.
import { register } from "node:module";

register("./record-imports-hooks.mjs", import.meta.url);
