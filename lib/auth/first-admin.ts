import { activeAdminExists } from './queries/users';
import { noAdminYet } from './member-commands';

/**
 * The line that tells a newcomer how to make the first admin, while the studio has none (a
 * `WITNESS_DEMO=0` start, a fresh production database); null once an active admin exists. It says
 * only that no admin exists, which is harmless before one does.
 */
export async function firstAdminHint(): Promise<string | null> {
  return (await activeAdminExists()) ? null : noAdminYet;
}
