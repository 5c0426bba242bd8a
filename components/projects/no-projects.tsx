import type { ReactNode } from 'react';
import { memberAddCommand } from '@/lib/auth/member-commands';
import { EmptyState } from '../ui/empty-state';

/** Who is looking: an admin reaches every project; anyone else reaches only the projects they are a member of. */
export interface ProjectsViewer {
  email: string;
  admin: boolean;
}

/**
 * The studio's "No projects yet": an admin is told how to make one (projects are made by
 * importing); a lead, who may be a member of none while projects exist, what to ask an admin for.
 */
export function NoProjects({ viewer, children }: { viewer: ProjectsViewer; children?: ReactNode }) {
  if (!viewer.admin)
    return (
      <EmptyState title="No projects yet">
        <span data-testid="ask-admin">
          You are not a lead of any project. Ask an admin to add you, on the Admin page or with{' '}
          <code className="font-mono">{memberAddCommand({ user: viewer.email, role: 'lead' })}</code>
        </span>
      </EmptyState>
    );
  return (
    <EmptyState title="No projects yet">
      {children ?? (
        <>
          Import trajectories with <code className="font-mono">npm run -s witness -- import PATH --project NAME --lead EMAIL</code> to
          create one (<code className="font-mono">--lead</code> makes that user its lead).
        </>
      )}
    </EmptyState>
  );
}
