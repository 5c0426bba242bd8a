import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs } from 'node:util';
import { looksLikeApiToken } from '../../lib/auth/api-token';
import { env } from '../../lib/env';
import { CliError, type CliCommand } from '../command';

const help = `Usage: witness mcp      (WITNESS_URL=https://studio.example WITNESS_TOKEN=wit_… witness mcp)

Witness's MCP server over stdio, for MCP clients that start a command: a bridge to the studio's
Streamable HTTP endpoint (WITNESS_URL/api/mcp) acting as the API token in WITNESS_TOKEN (make one
on Settings → API tokens, or \`witness token create --user EMAIL --json\`). It has no database of
its own: every message goes to the studio and back. stdout carries JSON-RPC only; anything it has
to say goes to stderr.

  WITNESS_URL     the studio's URL (e.g. http://127.0.0.1:3000)
  WITNESS_TOKEN   the API token it acts as (the token's roles, projects and scope hold)`;

/** Is this JSON-RPC message a request (it expects an answer)? */
function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'the MCP server over stdio: a bridge to the studio at WITNESS_URL as the token in WITNESS_TOKEN',
  help,
  async run(argv, io) {
    parseArgs({ args: argv, options: {}, strict: true });
    const { WITNESS_URL: url, WITNESS_TOKEN: token } = env();
    if (!url) throw new CliError('set WITNESS_URL to the studio (e.g. WITNESS_URL=http://127.0.0.1:3000)', 2);
    if (!token) throw new CliError('set WITNESS_TOKEN to an API token (witness token create --user EMAIL --json)', 2);
    if (!looksLikeApiToken(token)) throw new CliError('WITNESS_TOKEN is not a Witness API token (wit_ and 43 characters)', 2);

    const endpoint = new URL('/api/mcp', url.endsWith('/') ? url : `${url}/`);
    const studio = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const local = new StdioServerTransport();
    const log = (line: string) => io.stderr(`witness mcp: ${line}\n`);

    await new Promise<void>((resolve) => {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        void Promise.allSettled([studio.close(), local.close()]).then(() => resolve());
      };
      local.onmessage = (message) => {
        studio.send(message).catch((error: unknown) => {
          const text = error instanceof Error ? error.message : String(error);
          log(text);
          // a request the studio never answered gets its error, so the client does not wait for ever
          if (isRequest(message))
            void local.send({
              jsonrpc: '2.0',
              id: message.id,
              error: { code: -32000, message: `the studio at ${endpoint.href}: ${text}` },
            });
        });
      };
      studio.onmessage = (message) => void local.send(message).catch((error: unknown) => log(String(error)));
      // closing aborts the studio's pending fetches: nothing to report then
      studio.onerror = (error) => void (closed || log(error.message));
      local.onerror = (error) => void (closed || log(error.message));
      local.onclose = close;
      process.stdin.once('end', close);
      void studio.start().then(() => local.start());
    });
    return 0;
  },
};
