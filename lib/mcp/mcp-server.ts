import { scopeOf } from '../auth/token-scope';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { toolErrorResult, toolResult } from './mcp-errors';
import { toolAllowed, type McpTool, type ToolContext } from './mcp-tool';
import { getAgreementTool, listDisagreementsTool } from './tools/agreement';
import { getExportTool, requestExportTool } from './tools/exports';
import { getEstimatesTool, getLeaderboardTool } from './tools/insight';
import { listCampaignsTool, listProjectsTool } from './tools/projects';
import { claimNextItemTool, listAgentReviewsTool, submitReviewTool } from './tools/review';
import { getStillTool } from './tools/still';
import { readTranscriptTool } from './tools/transcript';

/**
 * Witness's MCP server, framework-free: one per caller (a SessionUser, from an API token or a
 * session), offering the tools its role and token scope allow (a `read` token: the read tools
 * only). Each tool parses its arguments with its zod schema (errors say where, as a JSON
 * pointer, and what), checks access and calls a use-case; its answer is small JSON (a summary
 * first, details on request, a cursor for more). Errors become MCP tool errors (`isError: true`)
 * here, once (mcp-errors.ts). Transports: app/api/mcp/route.ts (Streamable HTTP) and, through
 * it, `witness mcp` (stdio); tests connect an in-memory one.
 */
export const MCP_SERVER_NAME = 'witness';
export const MCP_SERVER_VERSION = '0.1.0';

/** Every tool, in the order tools/list shows them. Names are stable: agents and docs/agents.md depend on them. */
export const mcpTools: readonly McpTool[] = [
  listProjectsTool,
  listCampaignsTool,
  readTranscriptTool,
  getStillTool,
  claimNextItemTool,
  submitReviewTool,
  listAgentReviewsTool,
  getAgreementTool,
  listDisagreementsTool,
  getEstimatesTool,
  getLeaderboardTool,
  requestExportTool,
  getExportTool,
];

/** A tool as tools/list shows it: its name, title, description, JSON Schema of its input and read-only hint. */
export function toolListing(tool: McpTool): Tool {
  const schema = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  const { $schema: _drop, ...inputSchema } = schema;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...inputSchema, type: 'object' } as Tool['inputSchema'],
    annotations: { title: tool.title, readOnlyHint: tool.kind === 'read', openWorldHint: false },
  };
}

export interface McpServerOptions {
  /** the studio's public URL, for the links tools answer */
  baseUrl: string;
  now?: () => Date;
}

/** The tools this caller may see and call. */
export function toolsFor(user: SessionUser): McpTool[] {
  return mcpTools.filter((t) => toolAllowed(t, user));
}

/** Calls one tool for the caller: its answer, or its error as an MCP tool error. */
export async function callTool(user: SessionUser, name: string, args: unknown, options: McpServerOptions): Promise<CallToolResult> {
  const context: ToolContext = { user, baseUrl: options.baseUrl.replace(/\/+$/, ''), now: options.now ?? (() => new Date()) };
  try {
    const tool = mcpTools.find((t) => t.name === name);
    if (!tool) throw new AppError('NOT_FOUND', `No tool named '${name}' (tools/list names them)`);
    if (!toolAllowed(tool, user)) {
      const scope = scopeOf(user);
      throw new AppError(
        'FORBIDDEN',
        tool.scopes.includes(scope)
          ? `Your role cannot use ${name}.`
          : `This API token has the '${scope}' scope: ${name} is not one of its tools.`,
        { details: { scope } },
      );
    }
    return toolResult(await tool.call(args, context));
  } catch (error) {
    return toolErrorResult(error);
  }
}

/** An MCP server (the SDK's low-level Server: tools/list and tools/call) acting as `user`. */
export function createMcpServer(user: SessionUser, options: McpServerOptions): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Witness: an eval and review studio for AI agents. list_campaigns, then claim_next_item (as an agent reviewer), read_transcript and get_still with the claimId, submit_review. Leads: get_agreement, list_disagreements, get_estimates, get_leaderboard, request_export/get_export. Answers are small pages: pass nextCursor as cursor for more.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(user).map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(user, request.params.name, request.params.arguments ?? {}, options),
  );
  return server;
}
