/**
 * The Chroma adapter: a VectorStore on a Chroma server, and a launcher that runs Chroma from
 * the npm-installed native binding as a child process.
 *
 * @example
 * import { ChromaVectorStore, startEmbeddedChroma } from "agent-services/adapters/chroma";
 * const chroma = await startEmbeddedChroma({ path: "./data/chroma" });
 * const store = new ChromaVectorStore({ url: chroma.url });
 */
export { ChromaVectorStore, type ChromaVectorStoreOptions } from "./chroma-vector-store.js";
export {
  startEmbeddedChroma,
  type EmbeddedChroma,
  type EmbeddedChromaOptions,
} from "./chroma-launcher.js";
export {
  startSupervisedChroma,
  type ChromaEvent,
  type SupervisedChroma,
  type SupervisedChromaOptions,
} from "./chroma-supervisor.js";
export {
  replaceChromaCollection,
  type ReplaceChromaCollectionOptions,
} from "./chroma-collections.js";
