import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { apiContract, COMMON_ERRORS, errorMeanings, type ContractAnswer, type ContractRoute } from './api-contract';
import { appErrorAnswer } from './error-answer';

/** The document's own type (what the generator returns). */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const areaWho: Record<ContractRoute['area'], string> = {
  public: 'Public: no token needed.',
  studio: 'Anyone signed in (any role).',
  review: 'Anyone signed in (any role) who reviews in the project.',
  lead: 'Leads and admins (reviewers get 403); a lead of the project.',
  admin: 'Admins only.',
};

let built: OpenApiDocument | null = null;

/**
 * The public API's OpenAPI 3.1 document, generated from the contract (api-contract.ts: the zod
 * schemas the routes parse and answer with). Built once per process: the contract is static.
 */
export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument(apiContract);
  return built;
}

export function buildDocument(routes: readonly ContractRoute[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  // the one refusal shape, a component every error answer refers to (zod's own JSON Schema of it: naming a schema
  // through zod-to-openapi's register needs its zod extension loaded before any schema is made, which imports cannot promise)
  const { $schema: _dialect, ...errorJsonSchema } = z.toJSONSchema(appErrorAnswer, { target: 'draft-2020-12' });
  registry.registerComponent('schemas', 'AppError', errorJsonSchema as never);
  const errorSchema = { $ref: '#/components/schemas/AppError' };
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'wit_…',
    description: 'An API token (Settings → API tokens, or `witness token create`), sent as `Authorization: Bearer wit_…`.',
  });
  for (const route of routes) {
    const responses: Record<string, ResponseConfig> = {};
    for (const [status, answer] of Object.entries(route.responses)) responses[status] = responseOf(answer);
    if (route.area !== 'public') {
      for (const status of [...COMMON_ERRORS, ...(route.errors ?? [])].sort((a, b) => a - b)) {
        if (responses[String(status)]) continue; // the route's own answer for it (e.g. an import's 422 report)
        responses[String(status)] = {
          description: errorMeanings[status] ?? 'refused',
          content: { 'application/json': { schema: errorSchema } },
        };
      }
    }
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: operationId(route),
      summary: route.summary,
      description: [route.description, areaWho[route.area]].filter(Boolean).join('\n\n'),
      tags: [route.tag],
      security: route.area === 'public' ? [] : [{ bearerAuth: [] }],
      request: {
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(route.body ? { body: bodyOf(route.body) } : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Witness API',
      version: '1',
      description:
        'The public API of a Witness studio: every `/api/v1` route, generated from the zod schemas the routes parse and answer with. ' +
        'Every refusal is `{"error": {"code", "message", "details"?}}` (codes: lib/errors.ts); `details.field` names the input refused.',
    },
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
  });
}

function responseOf(answer: ContractAnswer): ResponseConfig {
  const content: NonNullable<ResponseConfig['content']> = {};
  if (answer.json) content['application/json'] = { schema: answer.json };
  if (answer.media)
    content[answer.media.type] = { schema: answer.media.binary ? { type: 'string', format: 'binary' } : { type: 'string' } };
  if (answer.alsoMedia) content[answer.alsoMedia.type] = { schema: { type: 'string' } };
  return {
    description: answer.description,
    ...(Object.keys(content).length ? { content } : {}),
    ...(answer.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(answer.headers).map(([name, what]) => [name, { description: what, schema: { type: 'string' } }]),
          ),
        }
      : {}),
  };
}

function bodyOf(body: NonNullable<ContractRoute['body']>) {
  const content: Record<string, { schema: z.ZodType | { type: 'string'; format?: string } }> = {};
  if (body.json) content['application/json'] = { schema: body.json };
  for (const type of body.media ?? []) content[type] = { schema: { type: 'string', format: 'binary' } };
  return { required: true, content, ...(body.description ? { description: body.description } : {}) };
}

/** getCampaignsIdAgreement-style ids: the method and the path's words. */
function operationId(route: ContractRoute): string {
  const words = route.path
    .replace(/^\/api\/v1\//, '')
    .split(/[/.{}-]+/)
    .filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
