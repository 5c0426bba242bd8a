import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument, type OpenApiDocument } from './openapi-document';

/**
 * Checks an answer of the public API against the OpenAPI document (openapi-document.ts): the
 * operation for the method and the concrete path (`/api/v1/campaigns/abc` matches
 * `/api/v1/campaigns/{id}`), the status among its responses, the media type among that
 * response's, and a JSON body against its schema (JSON Schema 2020-12, the dialect of OpenAPI 3.1,
 * with formats such as date-time checked). The API tests (e2e/membership-matrix.spec.ts, the db
 * tests that call route handlers) run every answer they get through it, so a route that answers
 * a shape its spec does not allow fails, naming the JSON pointer of what does not fit.
 */

export interface ApiAnswerToCheck {
  method: string;
  /** the request's path (a query string, if any, is ignored) */
  path: string;
  status: number;
  /** the answer's Content-Type (parameters such as charset ignored); null or absent: none */
  contentType?: string | null;
  /** the body: parsed JSON for a JSON answer, else its text (or null: none) */
  body: unknown;
}

/** What does not fit, one line each (empty: it fits). */
export function responseProblems(answer: ApiAnswerToCheck, doc: OpenApiDocument = openApiDocument()): string[] {
  const method = answer.method.toLowerCase();
  const path = answer.path.split('?')[0]!;
  const where = `${answer.method.toUpperCase()} ${path} ${answer.status}`;
  const template = matchPath(doc, path);
  if (!template) return [`${where}: no path of the spec matches ${path}`];
  const operation = (doc.paths?.[template] as Record<string, { responses?: Record<string, ResponseObject> }> | undefined)?.[method];
  if (!operation) return [`${where}: the spec has no ${method.toUpperCase()} ${template}`];
  const responses = operation.responses ?? {};
  const response = responses[String(answer.status)];
  if (!response)
    return [`${where}: status ${answer.status} is not a response of ${template} (the spec has ${Object.keys(responses).join(', ')})`];
  const content = response.content ?? {};
  const type = answer.contentType?.split(';')[0]!.trim().toLowerCase() || null;
  const types = Object.keys(content);
  if (types.length === 0) {
    return type === null && (answer.body === null || answer.body === '' || answer.body === undefined)
      ? []
      : [`${where}: the spec says no body, the answer has ${type ?? 'one'}`];
  }
  if (type === null || !types.includes(type)) return [`${where}: media type ${type ?? '(none)'} is not among ${types.join(', ')}`];
  if (type !== 'application/json') return [];
  const validate = validatorFor(doc, template, method, answer.status, type);
  if (validate(answer.body)) return [];
  return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '/'} ${e.message ?? 'does not fit'}${paramsText(e.params)}`);
}

/** Throws when the answer does not fit the spec (the message lists each problem with its JSON pointer). */
export function assertResponseMatchesSpec(answer: ApiAnswerToCheck, doc?: OpenApiDocument): void {
  const problems = responseProblems(answer, doc);
  if (problems.length) throw new Error(`the answer does not fit the OpenAPI spec:\n${problems.slice(0, 20).join('\n')}`);
}

/** A web Response's answer checked (its body read from a clone; JSON parsed when it says JSON). */
export async function assertFetchResponseMatchesSpec(
  method: string,
  url: string,
  response: Response,
  doc?: OpenApiDocument,
): Promise<void> {
  const contentType = response.headers.get('content-type');
  const text = response.status === 204 ? '' : await response.clone().text();
  const isJson = contentType?.toLowerCase().startsWith('application/json') ?? false;
  assertResponseMatchesSpec(
    {
      method,
      path: new URL(url, 'http://localhost').pathname,
      status: response.status,
      contentType,
      body: isJson && text ? (JSON.parse(text) as unknown) : text || null,
    },
    doc,
  );
}

interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}

/** The spec's path template a concrete path is an instance of: a literal one first, then the one with the fewest parameters. */
export function matchPath(doc: OpenApiDocument, path: string): string | null {
  const templates = Object.keys(doc.paths ?? {}).sort((a, b) => paramCount(a) - paramCount(b));
  for (const template of templates) {
    const pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+')}$`,
    );
    if (pattern.test(path)) return template;
  }
  return null;
}

const paramCount = (template: string) => (template.match(/\{/g) ?? []).length;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const paramsText = (params: Record<string, unknown>) => {
  const shown = Object.entries(params).filter(([, v]) => typeof v !== 'object');
  return shown.length ? ` (${shown.map(([k, v]) => `${k}: ${String(v)}`).join(', ')})` : '';
};

const validators = new WeakMap<OpenApiDocument, { ajv: Ajv2020; compiled: Map<string, ValidateFunction> }>();

function validatorFor(doc: OpenApiDocument, template: string, method: string, status: number, type: string): ValidateFunction {
  let entry = validators.get(doc);
  if (!entry) {
    // strict off: OpenAPI's own keywords (example, discriminator, the document's other parts) are not JSON Schema's
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    entry = { ajv, compiled: new Map() };
    validators.set(doc, entry);
  }
  const key = `${method} ${template} ${status} ${type}`;
  let validate = entry.compiled.get(key);
  if (!validate) {
    const response = (doc.paths![template] as Record<string, { responses: Record<string, ResponseObject> }>)[method]!.responses[
      String(status)
    ]!;
    const schema = response.content![type]!.schema as Record<string, unknown>;
    // the response's schema as the root, the document's components beside it: its `#/components/schemas/…` refs resolve there
    validate = entry.ajv.compile({ ...schema, components: doc.components });
    entry.compiled.set(key, validate);
  }
  return validate;
}
