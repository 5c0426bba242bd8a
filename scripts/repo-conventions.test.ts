import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house rules a linter cannot see (README "Conventions"): kebab-case file names, no barrel
 * files (an index.ts that re-exports a folder), one kind of link, and what the browser must never
 * load. Each fails with the offending paths.
 */
const root = new URL('..', import.meta.url).pathname;
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /^(app|components|lib|workers|render|cli|bench|e2e|scripts|prisma\/seed)\//.test(f) && /\.(ts|tsx|mjs)$/.test(f))
  .filter((f) => !f.includes('/fixtures/'));

// the modules a file imports by value: `import type` and imports whose every name is `type X` are erased
const resolve = (from: string, spec: string): string | null => {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null; // a package
  for (const f of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (/\.(ts|tsx)$/.test(f) && existsSync(path.join(root, f))) return f;
  return null; // a stylesheet, a JSON file
};
const importsOf = (file: string): string[] => {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:([^'";]*?)\sfrom\s+)?['"]([^'"]+)['"]/gm)]
    .filter(([, clause]) => {
      const names = /^\{([^}]*)\}$/.exec(clause?.trim() ?? '')?.[1];
      return !names?.trim() || !names.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()));
    })
    .map((m) => m[2]!);
  return specs.map((spec) => resolve(file, spec)).filter((f): f is string => f !== null);
};

describe('repository conventions', () => {
  it('source files and their folders are kebab-case (Next route segments like [id] and (studio) aside)', () => {
    const offenders = sources.filter((f) =>
      f
        .split('/')
        .map((part) => part.replace(/\.(ts|tsx|mjs)$/, ''))
        .some((part) => !/^(\[{1,2}(\.\.\.)?[a-zA-Z]+\]{1,2}|\([a-z-]+\)|_?[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*)$/.test(part)),
    );
    expect(offenders).toEqual([]);
  });

  it('has no barrel files (render/index.ts is Remotion entry point, registerRoot, not a re-export)', () => {
    expect(sources.filter((f) => /(^|\/)index\.(ts|tsx|mjs)$/.test(f) && f !== 'render/index.ts')).toEqual([]);
  });

  it("links go through IntentLink (prefetch on hover and focus), not next/link's viewport prefetch", () => {
    const direct = sources.filter(
      (f) => f !== 'components/ui/intent-link.tsx' && /from ['"]next\/link['"]/.test(readFileSync(path.join(root, f), 'utf8')),
    );
    expect(sources.filter((f) => f.endsWith('.tsx')).length).toBeGreaterThan(50);
    expect(direct).toEqual([]);
  });

  it('no browser module reaches the database, the server-side video derivation or the props schemas', () => {
    // modules a 'use client' file imports, transitively, by value (`import type` is erased): what the
    // pages' scripts instantiate. The props derivation brings the LaTeX engine and a headless
    // terminal (400 KB of the compare page's script once, through lib/video/transcript.ts), and the
    // props' zod schemas cost the trajectory page 40 ms of its load (lib/video/merge-video-parts.ts)
    const forbidden = [
      /^lib\/db\//,
      /^lib\/[a-z-]+\/queries\//,
      /^lib\/video\/props\.ts$/,
      /^lib\/video\/terminal\.ts$/,
      /^lib\/video\/schema\.ts$/,
      /^lib\/video\/transcript\.ts$/,
    ];
    const clientFiles = sources.filter(
      (f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f) && /^\s*['"]use client['"]/.test(readFileSync(path.join(root, f), 'utf8')),
    );
    expect(clientFiles.length).toBeGreaterThan(10);
    const via = new Map<string, string>(clientFiles.map((f) => [f, f]));
    const queue = [...clientFiles];
    while (queue.length) {
      const file = queue.pop()!;
      for (const dep of importsOf(file))
        if (!via.has(dep)) {
          via.set(dep, file);
          queue.push(dep);
        }
    }
    const chain = (f: string): string => (via.get(f) === f ? f : `${chain(via.get(f)!)} -> ${f}`);
    expect([...via.keys()].filter((f) => forbidden.some((re) => re.test(f))).map(chain)).toEqual([]);
  });

  it('has no import cycles by value across app, components, lib, workers, render and cli (arrows point down)', () => {
    const code = sources.filter(
      (f) => /^(app|components|lib|workers|render|cli)\//.test(f) && /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f),
    );
    const graph = new Map(code.map((f) => [f, importsOf(f)]));
    // Tarjan's strongly connected components: each component of more than one file is a cycle
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const f of code) if (!index.has(f)) visit(f);
    expect(code.length).toBeGreaterThan(300);
    expect(cycles).toEqual([]);
  });

  it('lib/db/ is infrastructure: none of its modules imports a domain room', () => {
    const db = sources.filter((f) => /^lib\/db\/[^/]+\.ts$/.test(f) && !f.endsWith('.test.ts'));
    expect(db.length).toBeGreaterThan(5);
    const upward = db.flatMap((f) =>
      importsOf(f)
        .filter((dep) => /^lib\//.test(dep) && !/^lib\/(db\/|env\.ts$|errors\.ts$|queue\/(boss|queue-schema|job-contract)\.ts$)/.test(dep))
        .map((dep) => `${f} -> ${dep}`),
    );
    expect(upward).toEqual([]);
  });
});
