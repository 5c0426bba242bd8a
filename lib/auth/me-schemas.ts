import { z } from 'zod';
import { projectRoleSchema } from './project-access';
import { roleSchema } from './roles';

/** GET /api/v1/me: who the token (or session) acts as and the projects it reaches (app/api/v1/me/route.ts). */
export const meAnswer = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    expertise: z.array(z.string()),
    /** an admin's unnarrowed token or session: every project, as its lead */
    allProjects: z.boolean(),
    projects: z.array(z.object({ projectId: z.string(), role: projectRoleSchema.nullable() })),
  }),
});
export type MeAnswer = z.input<typeof meAnswer>;
