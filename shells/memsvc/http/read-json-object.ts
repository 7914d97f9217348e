import { HttpError } from "./http-error.js";

/** The request body limit of the memory API: 1 MB (1,048,576 bytes). */
export const MAX_BODY_BYTES = 1_048_576;

const TOO_LARGE = `request body exceeds the limit of ${MAX_BODY_BYTES} bytes`;

/**
 * Reads a JSON object body: `Content-Type` must be `application/json` (charset allowed), the body
 * at most `maxBytes` (a larger declared `Content-Length` is refused before reading, a chunked body
 * is counted as it arrives and reading stops at the limit), the text valid JSON and the value an
 * object (not an array, string or null). Throws {@link HttpError} 400/413 otherwise. The object's
 * fields are validated by the core.
 *
 * @example
 * const body = await readJsonObject(c.req.raw); // { content: "…" }
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    const got = type === "" ? "none" : JSON.stringify(type);
    throw new HttpError(400, `Content-Type: expected application/json, got ${got}`);
  }
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new HttpError(413, TOO_LARGE);
  const text = await readText(request, maxBytes);
  if (text.trim() === "")
    throw new HttpError(400, "body: expected a JSON object, got an empty body");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : "unreadable";
    throw new HttpError(400, `body: malformed JSON (${reason})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new HttpError(400, `body: expected a JSON object, got ${got}`);
  }
  return value as Record<string, unknown>;
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      // Stop reading here. After the 413 is sent, @hono/node-server reads and discards what the
      // client still sends (up to 64 MB or 500 ms, then it closes the socket), so the client is
      // not cut off mid-upload and reliably receives the answer.
      reader.releaseLock();
      throw new HttpError(413, TOO_LARGE);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
