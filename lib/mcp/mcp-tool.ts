import { scopeOf } from '../auth/token-scope';
import { type z } from 'zod';
import type { TokenScope } from '../auth/api-token';
import { canAccess, type Area } from '../auth/roles';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';

/**
 * One MCP tool: a stable snake_case name, a zod input schema (its JSON Schema is what tools/list
 * shows), the role area and token scopes that may see and call it, and `run`: access check,
 * use-case, a small JSON answer. Framework-free; lib/mcp/mcp-server.ts serves them.
 */
export interface ToolContext {
  user: SessionUser;
  /** the studio's public URL, for links (stills, share links, downloads) */
  baseUrl: string;
  now: () => Date;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** read: answers only (a `read` token gets these); write: changes something */
  kind: 'read' | 'write';
  /** the token scopes that may call it (all: every tool; read: the read tools; training: export status) */
  scopes: readonly TokenScope[];
  /** the global role area that may call it (lib/auth/roles.ts) */
  area: Area;
  call(raw: unknown, context: ToolContext): Promise<unknown>;
}

export function defineTool<S extends z.ZodObject>(tool: {
  name: string;
  title: string;
  description: string;
  input: S;
  kind: 'read' | 'write';
  scopes?: readonly TokenScope[];
  area: Area;
  run: (input: z.infer<S>, context: ToolContext) => Promise<unknown>;
}): McpTool {
  const { run, ...rest } = tool;
  return {
    ...rest,
    scopes: tool.scopes ?? (tool.kind === 'read' ? ['all', 'read'] : ['all']),
    call: (raw, context) => run(parseToolInput(tool.input, raw), context),
  };
}

/** The tool's arguments parsed, or BAD_INPUT saying where (a JSON pointer) and what: "/fromStep: Too small: expected number to be >=0". */
export function parseToolInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  // eslint-disable-next-line no-restricted-syntax -- the one mapping of a tool's input
  const issue = parsed.error.issues[0]!;
  const pointer = '/' + issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  throw new AppError('BAD_INPUT', `${pointer}: ${issue.message}`, { details: { field: pointer } });
}

/** May this caller see and call the tool: its role reaches the tool's area and its token's scope allows it. */
export function toolAllowed(tool: McpTool, user: SessionUser): boolean {
  return tool.scopes.includes(scopeOf(user)) && canAccess(user.role, tool.area);
}
