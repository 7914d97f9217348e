/**
 * Token estimate and budget packing, shared by memory recall and anything else that has to fit
 * text into an LLM prompt.
 *
 * @example
 * import { estimateTokens, packContext } from "agent-services";
 * estimateTokens("hello world"); // 3
 */
export {
  estimateTokens,
  measureText,
  tokensForMeasure,
  utf8ByteLength,
} from "./estimate-tokens.js";
export type { TextMeasure } from "./estimate-tokens.js";
export { CONTEXT_HEADER, formatContextLine, packContext } from "./pack-context.js";
export type { ContextEntry, PackedContext } from "./pack-context.js";
