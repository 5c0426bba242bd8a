import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every installed package must run on the Node the README names (Node 20, package.json's
 * `engines.node`): npm prints EBADENGINE for one that does not, and .ci/run fails on that. This
 * reads the lockfile, so it fails (naming the package) as soon as a dependency that asks for a
 * newer Node is added, before anyone runs `npm ci`.
 */
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean }>;
};

/** The packages whose `engines.node` does not admit every Node in `supported` (a range), as "name@version requires X". */
export function enginesRefusing(packages: typeof lock.packages, supported: string): string[] {
  const lowest = semver.minVersion(supported);
  if (!lowest) throw new Error(`package.json engines.node ${supported} is not a version range`);
  const refusing: string[] = [];
  for (const [where, info] of Object.entries(packages)) {
    if (where === '') continue;
    const node = Array.isArray(info.engines) ? undefined : info.engines?.node;
    if (!node) continue;
    // the lowest Node we support must satisfy it (so must Node 20's newest, which the machines run)
    if (!semver.satisfies(lowest, node, { includePrerelease: true }) || !semver.satisfies(process.version, node)) {
      const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      refusing.push(`${name}@${info.version} (${where}) requires node ${node}`);
    }
  }
  return refusing;
}

describe('engines', () => {
  it('package.json asks for Node 20, as the README says', () => {
    expect(semver.minVersion(pkg.engines.node)?.major).toBe(20);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('Node 20');
  });

  it('every package in package-lock.json runs on the Node package.json names', () => {
    expect(enginesRefusing(lock.packages, pkg.engines.node)).toEqual([]);
  });

  it('names a package that asks for a newer Node', () => {
    const packages = {
      '': { version: '0.1.0' },
      'node_modules/ok': { version: '1.0.0', engines: { node: '>=18' } },
      'node_modules/katex/node_modules/commander': { version: '15.1.0', engines: { node: '>=22.12.0' } },
      'node_modules/pg-boss': { version: '12.38.0', engines: { node: '>=22' } },
    };
    expect(enginesRefusing(packages, '>=20.19')).toEqual([
      'commander@15.1.0 (node_modules/katex/node_modules/commander) requires node >=22.12.0',
      'pg-boss@12.38.0 (node_modules/pg-boss) requires node >=22',
    ]);
  });
});
