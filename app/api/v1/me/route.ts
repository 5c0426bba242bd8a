import { apiRoute } from '../../../_server/api-route';

/** GET /api/v1/me: who the token (or session) acts as. */
export const GET = apiRoute('studio', async (_request, user) => Response.json({ user }));
