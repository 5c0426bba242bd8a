import { parseArgs } from 'node:util';
import { tokenScopeSchema } from '../../lib/auth/api-token';
import { createApiTokenForEmail, listApiTokensForEmail, revokeApiTokenForEmail } from '../../lib/auth/manage-api-tokens';
import { disconnectDb } from '../../lib/db/client';
import { CliError, type CliCommand } from '../command';
import { openDatabase } from '../database';

const help = `Usage: witness token create --user EMAIL [--name N] [--scope all|read|training] [--project P] [--expires-in-days D] [--json]
       witness token list --user EMAIL [--json]
       witness token revoke --user EMAIL --id TOKEN_ID [--json]

API tokens for a user, made by an admin from a terminal (no browser): the same tokens as the
Settings → API tokens page, for /api/v1 and the MCP server (/api/mcp, \`witness mcp\`). The
plain token is printed once and stored only as a hash.

  --user EMAIL     the token's user (it acts as them, with their roles)
  --name N         a name to recognise it by (default: agent)
  --scope S        all (default: whatever the user's roles allow), read (no writes; the read-only
                   MCP tools only) or training (dataset export status and download and trajectory
                   import only; leads and admins)
  --project P      narrow it to one project (its slug): other projects answer 404
  --expires-in-days D   expire it after D days (default: never)
  --id TOKEN_ID    the token to revoke (from \`witness token list\`)
  --json           create: {"token", "id", "prefix", "scope", "user", "project"} (the token is not shown again)
                   list: {"tokens": [{"id", "name", "prefix", "scope", "project", "createdAt", "lastUsedAt", "expiresAt", "revokedAt"}]}
                   revoke: {"revoked": TOKEN_ID}`;

export const tokenCommand: CliCommand = {
  name: 'token',
  summary: 'manage API tokens for users, without a browser (token create, list, revoke)',
  help,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'create' && sub !== 'list' && sub !== 'revoke')
      throw new CliError(`unknown subcommand ${sub ?? '(none)'}: expected "witness token create", "list" or "revoke"`, 2);
    const { values } = parseArgs({
      args: rest,
      options: {
        user: { type: 'string' },
        name: { type: 'string' },
        scope: { type: 'string' },
        project: { type: 'string' },
        'expires-in-days': { type: 'string' },
        id: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    // usage problems are refused before the database is opened
    if (!values.user) throw new CliError('--user EMAIL is required', 2);
    if (values.scope !== undefined && !tokenScopeSchema.safeParse(values.scope).success)
      throw new CliError(`--scope must be ${tokenScopeSchema.options.join(', ')} (got ${values.scope})`, 2);
    const createOnly = (['name', 'scope', 'project', 'expires-in-days'] as const).filter((k) => values[k] !== undefined);
    if (sub !== 'create' && createOnly.length > 0) throw new CliError(`--${createOnly[0]} is for "witness token create" only`, 2);
    if (sub === 'revoke' && !values.id) throw new CliError('--id TOKEN_ID is required (see "witness token list")', 2);
    if (sub !== 'revoke' && values.id !== undefined) throw new CliError('--id is for "witness token revoke" only', 2);
    const days = values['expires-in-days'];
    if (days !== undefined && !/^\d{1,4}$/.test(days))
      throw new CliError(`--expires-in-days must be a whole number of days (got ${days})`, 2);

    const database = await openDatabase();
    try {
      if (sub === 'create') {
        const created = await createApiTokenForEmail({
          user: values.user,
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.scope !== undefined ? { scope: values.scope as 'all' } : {}),
          project: values.project ?? null,
          expiresInDays: days === undefined ? null : Number(days),
        });
        if (values.json) io.stdout(JSON.stringify(created) + '\n');
        else
          io.stdout(
            `${created.token}\n` +
              `(token ${created.id} for ${created.user}, scope ${created.scope}${created.project ? `, project ${created.project}` : ''}: shown once, stored only as a hash)\n`,
          );
      } else if (sub === 'list') {
        const tokens = await listApiTokensForEmail(values.user);
        if (values.json) io.stdout(JSON.stringify({ tokens }) + '\n');
        else if (tokens.length === 0) io.stdout(`${values.user} has no API tokens.\n`);
        else
          for (const t of tokens)
            io.stdout(
              `${t.id}  ${t.prefix}…  ${t.name}  scope ${t.scope}  ${t.project ?? 'all projects'}  ${t.revokedAt ? 'revoked' : t.lastUsedAt ? `last used ${t.lastUsedAt.slice(0, 16)}` : 'never used'}\n`,
            );
      } else {
        await revokeApiTokenForEmail(values.user, values.id!);
        if (values.json) io.stdout(JSON.stringify({ revoked: values.id }) + '\n');
        else io.stdout(`Revoked ${values.id}\n`);
      }
      return 0;
    } finally {
      await disconnectDb();
      await database.stop();
    }
  },
};
