import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The house rules a linter cannot see (README "Conventions"): kebab-case file names, and no
 * barrel files (an index.ts that re-exports a folder). Each fails with the offending paths.
 */
const root = new URL('..', import.meta.url).pathname;
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /^(app|components|lib|workers|render|cli|bench|e2e|scripts|prisma\/seed)\//.test(f) && /\.(ts|tsx|mjs)$/.test(f))
  .filter((f) => !f.includes('/fixtures/'));

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
});
