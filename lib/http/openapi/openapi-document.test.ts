import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { apiContract } from './api-contract';
import { openApiDocument } from './openapi-document';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every app/api/v1/**\/route.ts with the methods it exports, as the spec's `{param}` path. */
async function routeFiles(dir = 'app/api/v1'): Promise<{ file: string; path: string; methods: string[] }[]> {
  const out: { file: string; path: string; methods: string[] }[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await routeFiles(rel)));
    else if (entry.name === 'route.ts') {
      const source = await readFile(path.join(root, rel), 'utf8');
      const methods = [...source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) =>
        m[1]!.toLowerCase(),
      );
      out.push({ file: rel, path: `/${dir.replace(/^app\//, '').replace(/\[([^\]]+)\]/g, '{$1}')}`, methods });
    }
  }
  return out;
}

describe('the OpenAPI document (GET /api/v1/openapi.json)', () => {
  it('validates as OpenAPI 3.1', async () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    // the validator dereferences in place: hand it a copy
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route file’s methods under /api/v1, and no path without a route file', async () => {
    const doc = openApiDocument();
    const files = await routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(28);
    const inSpec = new Set(Object.entries(doc.paths ?? {}).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`)));
    const served = new Set(files.flatMap((f) => f.methods.map((m) => `${m} ${f.path}`)));
    expect(
      [...served].filter((op) => !inSpec.has(op)),
      'routes missing from lib/http/openapi/api-contract.ts',
    ).toEqual([]);
    expect(
      [...inSpec].filter((op) => !served.has(op)),
      'operations of the spec that no route.ts exports',
    ).toEqual([]);
  });

  it('gives every authenticated operation bearer auth and the AppError shape on its refusals', () => {
    const doc = openApiDocument();
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of apiContract) {
      const op = (doc.paths![route.path] as Record<string, { security: unknown[]; responses: Record<string, { content?: object }> }>)[
        route.method
      ]!;
      if (route.area === 'public') {
        expect(op.security, route.path).toEqual([]);
        continue;
      }
      expect(op.security, route.path).toEqual([{ bearerAuth: [] }]);
      for (const status of ['401', '403', '422', '500'].filter((st) => !(st in route.responses)))
        expect(op.responses[status]?.content, `${route.method} ${route.path} ${status}`).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/AppError' } },
        });
    }
  });

  it('names each path in full and each operation once', () => {
    const ids = apiContract.map((r) => `${r.method} ${r.path}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of apiContract) expect(r.path).toMatch(/^\/api\/v1\//);
    const opIds = Object.values(openApiDocument().paths ?? {}).flatMap((ops) =>
      Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId),
    );
    expect(new Set(opIds).size).toBe(opIds.length);
  });
});
