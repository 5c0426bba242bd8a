import { describe, expect, it } from 'vitest';
import { assertResponseMatchesSpec, matchPath, responseProblems } from './check-response';
import { openApiDocument } from './openapi-document';

const exportView = {
  id: 'exp_1',
  format: 'trl-dpo',
  status: 'queued',
  progress: 0,
  rows: null,
  sha256: null,
  error: null,
  params: { minAgreement: 0.6 },
  purpose: 'training',
  createdAt: '2026-12-06T22:00:00.000Z',
  finishedAt: null,
};

describe('checkResponse (an answer against the OpenAPI document)', () => {
  it('matches a concrete path to its template, a literal path first', () => {
    const doc = openApiDocument();
    expect(matchPath(doc, '/api/v1/exports/abc')).toBe('/api/v1/exports/{id}');
    expect(matchPath(doc, '/api/v1/exports')).toBe('/api/v1/exports');
    expect(matchPath(doc, '/api/v1/campaigns/c1/agreement')).toBe('/api/v1/campaigns/{id}/agreement');
    expect(matchPath(doc, '/api/v1/campaigns/c1/agreement/questions.csv')).toBe('/api/v1/campaigns/{id}/agreement/{table}');
    expect(matchPath(doc, '/api/v1/nothing/here')).toBeNull();
  });

  it('accepts an answer of the right shape, extra fields included', () => {
    expect(
      responseProblems({
        method: 'GET',
        path: '/api/v1/exports/exp_1',
        status: 200,
        contentType: 'application/json',
        body: { export: { ...exportView, extra: 1 } },
      }),
    ).toEqual([]);
    expect(
      responseProblems({
        method: 'GET',
        path: '/api/v1/exports/nope',
        status: 404,
        contentType: 'application/json; charset=utf-8',
        body: { error: { code: 'NOT_FOUND', message: 'No such export' } },
      }),
    ).toEqual([]);
    expect(
      responseProblems({ method: 'POST', path: '/api/v1/campaigns/c1/assignments', status: 204, contentType: null, body: null }),
    ).toEqual([]);
    expect(
      responseProblems({
        method: 'GET',
        path: '/api/v1/exports/e/file',
        status: 200,
        contentType: 'application/x-ndjson; charset=utf-8',
        body: '{}\n',
      }),
    ).toEqual([]);
  });

  it('refuses a deliberately wrong shape, naming the JSON pointer', () => {
    const wrong = { export: { ...exportView, status: 'finished', createdAt: 'yesterday', progress: '0' } };
    const problems = responseProblems({
      method: 'GET',
      path: '/api/v1/exports/exp_1',
      status: 200,
      contentType: 'application/json',
      body: wrong,
    });
    expect(problems.join('\n')).toContain('/export/status must be equal to one of the allowed values');
    expect(problems.join('\n')).toContain('/export/createdAt must match format "date-time"');
    expect(problems.join('\n')).toContain('/export/progress must be number');
    const missing = { export: { ...exportView, id: undefined } };
    expect(() =>
      assertResponseMatchesSpec({
        method: 'GET',
        path: '/api/v1/exports/exp_1',
        status: 200,
        contentType: 'application/json',
        body: JSON.parse(JSON.stringify(missing)),
      }),
    ).toThrow(/GET \/api\/v1\/exports\/exp_1 200: \/export must have required property 'id'/);
  });

  it('refuses an error that is not the AppError shape, a status the spec lacks and a wrong media type', () => {
    expect(
      responseProblems({
        method: 'GET',
        path: '/api/v1/exports/x',
        status: 404,
        contentType: 'application/json',
        body: { message: 'gone' },
      }),
    ).toContain("GET /api/v1/exports/x 404: / must have required property 'error' (missingProperty: error)");
    expect(
      responseProblems({ method: 'GET', path: '/api/v1/exports/x', status: 418, contentType: 'application/json', body: {} })[0],
    ).toMatch(/status 418 is not a response of \/api\/v1\/exports\/\{id\}/);
    expect(
      responseProblems({ method: 'GET', path: '/api/v1/exports/x', status: 200, contentType: 'text/html', body: '<html>' })[0],
    ).toMatch(/media type text\/html is not among application\/json/);
    // an import's 422 is its report (every item failed) or a refusal; anything else is not
    const report = {
      imported: 0,
      skipped: 0,
      failed: 1,
      unchangedFiles: 0,
      trajectories: [],
      errors: [{ path: 'body', where: '/', message: 'x' }],
    };
    const importAnswer = (body: unknown) =>
      responseProblems({ method: 'POST', path: '/api/v1/trajectories', status: 422, contentType: 'application/json', body });
    expect(importAnswer(report)).toEqual([]);
    expect(importAnswer({ error: { code: 'BAD_INPUT', message: 'query parameter split: …' } })).toEqual([]);
    expect(importAnswer({ failed: 1 }).length).toBeGreaterThan(0);
    expect(responseProblems({ method: 'DELETE', path: '/api/v1/exports/x', status: 200, body: null })[0]).toMatch(/has no DELETE/);
  });
});
