import type { ProjectAccess } from './project-access';
import type { Role } from './roles';

/** A user's identity as stored (lists, creation, invites). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  expertise: string[];
}

/** The signed-in user (or API token) as every edge sees it: identity plus the projects it reaches. */
export interface SessionUser extends UserRecord {
  access: ProjectAccess;
}
