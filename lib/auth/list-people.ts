import { listOpenInvites } from './queries/invites';
import { listProjectMembers } from './queries/memberships';
import { recentSignInAlerts } from './queries/sign-in-alerts';
import { listUsers } from './queries/users';
import { requireArea } from './require-area';
import type { SessionUser } from './session-user';

const ALERT_DAYS = 7;

/**
 * What the Admin page shows of people (admins only): every user, the open invitations, each
 * project's members and the repeated failed sign-ins of the last 7 days.
 */
export async function listPeople(user: SessionUser, now: Date = new Date()) {
  requireArea(user, 'admin');
  const [users, invites, members, signInAlerts] = await Promise.all([
    listUsers(),
    listOpenInvites(now),
    listProjectMembers(),
    recentSignInAlerts(new Date(now.getTime() - ALERT_DAYS * 86_400_000)),
  ]);
  return { users, invites, members, signInAlerts };
}
