import type { TokenScope } from './api-token';
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
  /** set when the caller authenticated with an API token (absent for a browser session): its id and scope */
  token?: { id: string; scope: TokenScope };
}
