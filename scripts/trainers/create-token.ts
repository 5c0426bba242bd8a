import path from 'node:path';
import { root, runCommand } from './venv';

/**
 * `witness token create --user <email> --scope <scope> [--name <name>] --json`, a second command on
 * the studio's database (`env`: its DATABASE_URL and data dir; default this process's), for the
 * trainer demo (scripts/trainer-demo.ts) and the trainers' tests (scripts/trainers/run.ts). Answers
 * the token printed once, or the command's exit code and output when it failed or printed none.
 */
export async function createTokenWithCli(options: {
  user: string;
  scope: string;
  name?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<{ ok: true; token: string } | { ok: false; code: number; output: string }> {
  const args = ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'token', 'create', '--user', options.user, '--scope', options.scope];
  if (options.name) args.push('--name', options.name);
  const made = await runCommand(process.execPath, [...args, '--json'], { quiet: true, env: options.env });
  let token = '';
  try {
    const answer = JSON.parse(made.output.trim().split('\n').pop() ?? '') as { token?: unknown };
    if (typeof answer.token === 'string') token = answer.token;
  } catch {
    // no JSON answer: the failure below says what the command printed
  }
  return made.code === 0 && token ? { ok: true, token } : { ok: false, code: made.code, output: made.output };
}
