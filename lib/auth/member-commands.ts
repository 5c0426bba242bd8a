import type { ProjectRole } from './project-access';
import type { Role } from './roles';

/**
 * The command lines the studio shows people who need a membership or the first admin (the
 * projects list, the sign-in page, `witness start`, the CLI's errors), written once so that every
 * place shows the same, runnable line. Pure strings: browser components import them too.
 */
const witness = 'npm run -s witness --';

/** `witness member add …`; parts left out are placeholders a person fills in. */
export function memberAddCommand(parts: { project?: string; user?: string; role?: ProjectRole } = {}): string {
  return `${witness} member add --project ${parts.project ?? 'PROJECT'} --user ${parts.user ?? 'EMAIL'} --role ${parts.role ?? 'lead|reviewer'}`;
}

/** `witness user create …` for this email and role. */
export function userCreateCommand(email = 'you@example.com', role: Role | 'lead|reviewer' = 'admin'): string {
  return `${witness} user create --email ${email} --role ${role}`;
}

/** What `witness start` and the sign-in page say while no (active) admin exists. */
export const noAdminYet = `No admin yet: create one with  ${userCreateCommand()}`;
