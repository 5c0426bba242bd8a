import { openApiDocument } from '@/lib/http/openapi/openapi-document';

// the same for everyone and every request: made once, at build
export const dynamic = 'force-static';

/**
 * GET /api/v1/openapi.json: the public API's contract, OpenAPI 3.1, generated from the zod
 * schemas the routes parse and answer with (lib/http/openapi/). Public: no token needed.
 */
export async function GET(): Promise<Response> {
  return Response.json(openApiDocument(), { headers: { 'cache-control': 'public, max-age=300' } });
}
