import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeTable } from './route-table';

const root = path.resolve(import.meta.dirname, '../..');

async function routeFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await routeFiles(rel)));
    else if (entry.name === 'page.tsx' || entry.name === 'route.ts') out.push(rel);
  }
  return out;
}

describe('the route table (membership matrix)', () => {
  it('has a row for every page.tsx and route.ts under app/, and no row for a file that is gone', async () => {
    const files = (await routeFiles('app')).sort();
    const listed = new Set(routeTable.map((r) => r.file));
    expect(files.length).toBeGreaterThan(40);
    expect(
      files.filter((f) => !listed.has(f)),
      'add a row to app/_server/route-table.ts for each of these',
    ).toEqual([]);
    expect(
      [...listed].filter((f) => !files.includes(f)),
      'rows whose file no longer exists',
    ).toEqual([]);
  });

  it('gives every API route its exported method, and every project-scoped row a placeholder of project A', async () => {
    const { readFile } = await import('node:fs/promises');
    for (const row of routeTable.filter((r) => r.file.endsWith('route.ts'))) {
      const source = await readFile(path.join(root, row.file), 'utf8');
      expect(source, `${row.file} exports ${row.method}`).toMatch(new RegExp(`export (const|async function) ${row.method}\\b`));
    }
    for (const row of routeTable.filter((r) => r.scope === 'id'))
      expect(`${row.path} ${JSON.stringify(row.body ?? '')}`, row.file).toMatch(
        /:(project|campaign|pairCampaign|item|trajectory|assignment|pairAssignment|export|video|run)\b/,
      );
  });

  it("marks exactly the routes witness start's fast lane serves, and each exports the one shared handler through nextRoute", async () => {
    const { readFile } = await import('node:fs/promises');
    const { fastLaneFiles } = await import('@/lib/http/fast-lane');
    const marked = routeTable.filter((r) => r.fastLane).map((r) => `${r.method} ${r.file}`);
    expect([...fastLaneFiles].sort()).toEqual(marked.sort());
    for (const row of routeTable.filter((r) => r.fastLane)) {
      const source = await readFile(path.join(root, row.file), 'utf8');
      expect(source, `${row.file}: the same handler as the fast lane`).toMatch(new RegExp(`export const ${row.method} = nextRoute\\(`));
    }
  }, 60_000);
});
