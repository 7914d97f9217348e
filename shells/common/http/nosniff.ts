/**
 * `X-Content-Type-Options: nosniff`, sent with every answer of both services: a browser then
 * takes a JSON answer for JSON and never guesses another type from its bytes, which hold text
 * clients stored (a memory's content, a SQL string quoted in an error). The memory browser's
 * page sends it with its other page headers (mount-memory-browser.ts).
 */
export const NOSNIFF_NAME = "X-Content-Type-Options";
export const NOSNIFF_VALUE = "nosniff";
/** The header as a line of a raw HTTP/1.1 head, with its CRLF. */
export const NOSNIFF_LINE = `${NOSNIFF_NAME}: ${NOSNIFF_VALUE}\r\n`;
