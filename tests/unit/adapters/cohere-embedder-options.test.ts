import { describe, expect, it } from "vitest";
import { CohereEmbedder, type CohereEmbedderOptions } from "../../../adapters/cohere/index.js";

describe("CohereEmbedder's options (QA pass as a library user)", () => {
  it.each([
    [{}, "got undefined"],
    [{ apiKey: "" }, 'got ""'],
    [{ apiKey: "  " }, 'got "  "'],
    [{ apiKey: 42 }, "got number"],
    [undefined, "got undefined"],
  ])(
    "refuses %j at construction, naming apiKey, instead of calling Cohere without a key",
    (options, got) => {
      expect(() => new CohereEmbedder(options as unknown as CohereEmbedderOptions)).toThrow(
        new TypeError(
          `CohereEmbedder: apiKey must be a non-empty string (the Cohere API key), ${got}`,
        ),
      );
    },
  );

  it("builds with a key and names the model and dimensions in its id", () => {
    expect(new CohereEmbedder({ apiKey: "k", dimensions: 256 }).id).toBe("cohere:embed-v4.0:256");
  });
});
