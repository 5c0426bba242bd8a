import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { findExport, type ExportRecord } from './queries/exports';

/** One export, for a lead of its project (else NOT_FOUND, or FORBIDDEN for a reviewer there); null when it is gone. */
export async function getExport(user: SessionUser, exportId: string): Promise<ExportRecord | null> {
  await requireProjectRoleFor(user, 'export', exportId, 'lead');
  return findExport(exportId);
}
