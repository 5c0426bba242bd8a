import { listProjectSummaries } from '@/lib/db/trajectories/projects';
import { apiRoute } from '../../../_server/api-route';

/** GET /api/v1/projects: projects with counts. */
export const GET = apiRoute('studio', async () => Response.json({ projects: await listProjectSummaries() }));
