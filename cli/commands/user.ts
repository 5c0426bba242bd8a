import { parseArgs } from 'node:util';
import { disconnectDb } from '../../lib/db/client';
import { createUser } from '../../lib/auth/create-user';
import { roles } from '../../lib/auth/roles';
import { CliError, type CliCommand } from '../command';
import { openDatabase } from '../database';

export const userCommand: CliCommand = {
  name: 'user',
  summary: 'manage users (user create)',
  help: `Usage: witness user create --email EMAIL --role admin|lead|reviewer [--name NAME]
                          [--expertise TAG,TAG] [--password-stdin] [--json]

Creates a user who signs in with email + password. The password is read from stdin
(--password-stdin, first line) or, when absent, generated and printed once.

  --json   print {"id", "email", "role", "expertise", "password"?}`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'create') throw new CliError(`unknown subcommand ${sub ?? '(none)'}: expected "witness user create"`, 2);
    const { values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        role: { type: 'string' },
        name: { type: 'string' },
        expertise: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    if (!values.email) throw new CliError('--email is required', 2);
    if (!values.role || !(roles as readonly string[]).includes(values.role))
      throw new CliError(`--role must be one of ${roles.join(', ')}`, 2);
    let password: string;
    let generated = false;
    if (values['password-stdin']) {
      password = (await io.readStdin()).split(/\r?\n/)[0] ?? '';
    } else {
      const { randomBytes } = await import('node:crypto');
      password = randomBytes(12).toString('base64url');
      generated = true;
    }
    const database = await openDatabase();
    try {
      const user = await createUser({
        email: values.email,
        name: values.name ?? values.email.split('@')[0]!,
        role: values.role as (typeof roles)[number],
        password,
        expertise: values.expertise
          ? values.expertise
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean)
          : [],
      });
      if (values.json) {
        io.stdout(
          JSON.stringify({
            id: user.id,
            email: user.email,
            role: user.role,
            expertise: user.expertise,
            ...(generated ? { password } : {}),
          }) + '\n',
        );
      } else {
        io.stdout(`Created ${user.role} ${user.email}${user.expertise.length ? ` (expertise: ${user.expertise.join(', ')})` : ''}\n`);
        if (generated) io.stdout(`Password (shown once): ${password}\n`);
      }
      return 0;
    } finally {
      await disconnectDb();
      await database.stop();
    }
  },
};
