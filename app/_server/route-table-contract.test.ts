import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/http/openapi/openapi-document';
import { routeTable } from './route-table';

/** A route file as the spec's path: app/api/v1/campaigns/[id]/route.ts -> /api/v1/campaigns/{id}. */
const specPath = (file: string) =>
  file
    .replace(/^app/, '')
    .replace(/\/route\.ts$/, '')
    .replace(/\[([^\]]+)\]/g, '{$1}');

describe('the route table and the OpenAPI contract (lib/http/openapi)', () => {
  it('has every /api/v1 row of the route table in the spec, with its method', () => {
    const rows = routeTable.filter((r) => r.file.startsWith('app/api/v1/'));
    expect(rows.length).toBeGreaterThanOrEqual(29);
    const paths = openApiDocument().paths ?? {};
    const missing = rows
      .map((r) => `${r.method} ${specPath(r.file)}`)
      .filter((op) => {
        const [method, path] = op.split(' ') as [string, string];
        return !(paths[path] as Record<string, unknown> | undefined)?.[method.toLowerCase()];
      });
    expect(missing, 'add these to lib/http/openapi/api-contract.ts').toEqual([]);
  });

  it('has no operation the route table lacks', () => {
    const listed = new Set(routeTable.map((r) => `${r.method.toLowerCase()} ${specPath(r.file)}`));
    const ops = Object.entries(openApiDocument().paths ?? {}).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m} ${path}`),
    );
    expect(ops.filter((op) => !listed.has(op))).toEqual([]);
  });
});
