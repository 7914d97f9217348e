/**
 * An HTTP response carrying a JSON-RPC error with `id: null`, the shape the MCP SDK's transport
 * uses for transport-level failures (415, 413, 405, 401, 404…), so clients see one error format
 * whatever layer refused the request. Key order as the SDK writes it.
 *
 * @example
 * return jsonRpcErrorResponse(405, -32000, "Method not allowed.", { Allow: "POST" });
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}
