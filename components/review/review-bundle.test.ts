import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Issue 43 §5: the review pages become interactive before their heavy code arrives. The Player
 * (Remotion and the composition) loads after hydration (components/video/deferred-player.tsx);
 * Markdown, KaTeX and Prism load in a chunk of their own (components/ui/deferred-text.tsx). One
 * static import of any of them from the workspaces' module graph puts it back in the page's
 * chunk, which is how the task panel once pulled all of rich-text in through a constant. This
 * walks the static imports (not `import()`, not `import type`) from the two workspaces.
 */

const root = path.resolve(import.meta.dirname, '../..');
const HEAVY = /^(katex|react-markdown|remark-|rehype-|micromark|prismjs|remotion|@remotion\/|mathjax-full)/;
const STATIC_IMPORT = /^import\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/')
    ? path.join(root, spec.slice(2))
    : spec.startsWith('.')
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (base === null) return null;
  for (const ext of ['', '.ts', '.tsx']) if (existsSync(base + ext) && !base.endsWith('/')) return base + ext;
  return null;
}

/** each heavy package reached, with the chain of files that reaches it */
function heavyImports(entries: string[]): string[] {
  const parent = new Map<string, string | null>();
  const stack = entries.map((e) => [path.join(root, e), null] as [string, string | null]);
  const found: string[] = [];
  while (stack.length > 0) {
    const [file, from] = stack.pop()!;
    if (parent.has(file) || !/\.(ts|tsx)$/.test(file)) continue;
    parent.set(file, from);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const spec = m[1]!;
      const next = resolve(file, spec);
      if (next) stack.push([next, file]);
      else if (HEAVY.test(spec) && !spec.endsWith('.css')) {
        const chain: string[] = [];
        for (let f: string | null | undefined = file; f; f = parent.get(f)) chain.push(path.relative(root, f));
        found.push(`${spec} <- ${chain.join(' <- ')}`);
      }
    }
  }
  return found;
}

describe('the review pages load their heavy code after hydration', () => {
  it('no static import from the review and compare workspaces reaches Remotion, Markdown, KaTeX or Prism', () => {
    expect(heavyImports(['components/review/review-workspace.tsx', 'components/review/compare-workspace.tsx'])).toEqual([]);
  });

  it('the walker finds such an import where there is one', () => {
    expect(
      heavyImports(['render/ui/criterion-text.tsx']).some((line) => line.startsWith('react-markdown <- render/ui/rich-text.tsx')),
    ).toBe(true);
  });
});
