import type { Role } from './roles';

/** The signed-in user as every edge sees it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  expertise: string[];
}
