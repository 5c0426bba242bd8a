import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { admitCaller } from '@/lib/http/api-edge';
import { baseUrl } from '@/lib/env';
import { createMcpServer } from '@/lib/mcp/mcp-server';
import { errorResponse, webApiRequest } from '../../_server/api-route';

export const dynamic = 'force-dynamic';

/** The largest JSON-RPC message the MCP endpoint reads (a submit_review with its evidence fits well within). */
const MAX_MCP_BODY_BYTES = 1024 * 1024;

/**
 * POST /api/mcp: Witness's MCP server over Streamable HTTP (lib/mcp/mcp-server.ts), stateless
 * with JSON answers: each request authenticates as /api/v1 does (`Authorization: Bearer wit_…`,
 * or the session cookie; the same roles, project scopes and token scopes: a `read` token gets the
 * read tools only) and gets a server of its own. GET (a server-sent event stream) and DELETE (a
 * session's end) have nothing to serve without sessions: 405.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await admitCaller(webApiRequest(request), 'studio');
    const server = createMcpServer(user, { baseUrl: baseUrl() });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  } catch (error) {
    return errorResponse(error);
  }
}

function notAllowed(): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages.' },
      id: null,
    },
    { status: 405, headers: { allow: 'POST' } },
  );
}

export const GET = notAllowed;
export const DELETE = notAllowed;
