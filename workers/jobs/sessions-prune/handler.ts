import { pruneExpiredSessions } from '../../../lib/auth/prune-expired-sessions';
import type { JobHandler } from '../../job-handler';
import { sessionsPruneJob } from '../../../lib/queue/jobs/sessions-prune';

/** Idempotent: deleting what has expired twice deletes nothing the second time. */
export const sessionsPruneHandler: JobHandler<typeof sessionsPruneJob> = {
  contract: sessionsPruneJob,
  async handle(_payload, ctx) {
    const deleted = await pruneExpiredSessions(ctx.now());
    ctx.log(`deleted ${deleted} expired session(s)`);
    return { deleted };
  },
};
