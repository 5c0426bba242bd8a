import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { listTrajectoriesAfter, projectByRef } from './queries/trajectory-queries';
import { trajectoryPageQuery, type TrajectoryPageAnswer, type TrajectoryPageQuery } from './trajectory-schemas';

/**
 * GET /api/v1/trajectories: a page of the trajectories (newest first) of the projects in
 * `projectIds` (the caller's led ones; null: every project), optionally of one project and the
 * list's filters, after the row `cursor` names (an opaque keyset cursor: the last row's creation
 * time and id, so a page is one index walk however deep). An unknown or unreached project is
 * NOT_FOUND; a cursor that is not one of ours is BAD_INPUT naming `cursor`.
 */
export async function pageTrajectories(raw: TrajectoryPageQuery, projectIds: string[] | null): Promise<TrajectoryPageAnswer> {
  const q = parseInput(trajectoryPageQuery, raw, 'query parameter');
  let projectId: string | null = null;
  if (q.project) {
    const project = await projectByRef(q.project);
    if (!project || (projectIds !== null && !projectIds.includes(project.id)))
      throw new AppError('NOT_FOUND', `No project named ${q.project}`);
    projectId = project.id;
  }
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const filters = {
    project: undefined,
    environment: q.environment,
    policy: q.policy,
    split: q.split,
    q: q.q,
    reward: 'any',
    review: 'any',
    page: 1,
  } as const;
  const rows = await listTrajectoriesAfter(filters, projectIds, projectId, after, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    trajectories: page,
    nextCursor: rows.length > q.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

export function encodeCursor(at: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([at.createdAt, at.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'string' && id.length > 0 && id.length <= 64)
      return { createdAt, id };
  } catch {
    // not JSON: refused below
  }
  throw new AppError('BAD_INPUT', 'query parameter cursor: not a cursor this list gave (pass nextCursor as it came)', {
    details: { field: 'cursor' },
  });
}
