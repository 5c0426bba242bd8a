import { db } from '../../db/client';

/**
 * Alerts for the admin: an account that failed to sign in many times, kept as `sign_in.failures`
 * entries of the audit log (lib/auth/sign-in.ts writes them) and listed on the Admin page.
 */
export const SIGN_IN_ALERT_ACTION = 'sign_in.failures';

export interface SignInAlert {
  at: Date;
  userId: string | null;
  email: string;
  failures: number;
  windowMinutes: number;
  lastAddress: string;
}

/** The latest alerts since `since`, newest first. */
export async function recentSignInAlerts(since: Date, limit = 20): Promise<SignInAlert[]> {
  const rows = await db().auditLog.findMany({
    where: { action: SIGN_IN_ALERT_ACTION, at: { gte: since } },
    orderBy: { at: 'desc' },
    take: limit,
    select: { at: true, targetId: true, data: true },
  });
  return rows.map((r) => {
    const data = (r.data ?? {}) as { email?: unknown; failures?: unknown; windowMinutes?: unknown; lastAddress?: unknown };
    return {
      at: r.at,
      userId: r.targetId,
      email: String(data.email ?? ''),
      failures: Number(data.failures ?? 0),
      windowMinutes: Number(data.windowMinutes ?? 0),
      lastAddress: String(data.lastAddress ?? ''),
    };
  });
}
