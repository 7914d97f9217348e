export { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";
export type * from "./types.js";
