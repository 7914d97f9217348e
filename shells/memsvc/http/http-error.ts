/**
 * A refusal decided by the HTTP shell itself (bad body, too large, unknown route, wrong method),
 * as opposed to the core's coded errors. Its message is safe to send to the client.
 *
 * @example
 * throw new HttpError(413, "request body exceeds 1048576 bytes");
 */
export class HttpError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: HttpError["status"],
    message: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}
