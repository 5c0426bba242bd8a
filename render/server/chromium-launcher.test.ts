import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumLauncher, RENDER_CHROMIUM_SWITCHES } from './chromium-launcher';

const dir = mkdtempSync(path.join(os.tmpdir(), "witness launcher 'test' "));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a stand-in executable that prints its arguments, one a line */
function fakeChromium(name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n', { mode: 0o755 });
  return file;
}

describe('chromiumLauncher', () => {
  it('runs the executable with the render switches first, then the arguments it was given, unchanged', () => {
    // a path with spaces and single quotes (the temp dir's name has both)
    const launcher = chromiumLauncher(fakeChromium("chrom'ium"));
    const out = execFileSync(launcher, ['--headless=old', 'an argument with spaces', "it's", '$HOME'], { encoding: 'utf8' });
    expect(out.split('\n').slice(0, -1)).toEqual([
      ...RENDER_CHROMIUM_SWITCHES,
      '--headless=old',
      'an argument with spaces',
      "it's",
      '$HOME',
    ]);
  });

  it('writes one launcher per executable, and writes it again when it was removed', () => {
    const exe = fakeChromium('again');
    const first = chromiumLauncher(exe);
    expect(chromiumLauncher(exe)).toBe(first);
    rmSync(path.dirname(first), { recursive: true, force: true });
    const second = chromiumLauncher(exe);
    expect(second).not.toBe(first);
    expect(execFileSync(second, ['x'], { encoding: 'utf8' })).toBe(`${RENDER_CHROMIUM_SWITCHES.join('\n')}\nx\n`);
  });

  it('says where when the executable is missing or not executable', () => {
    expect(() => chromiumLauncher(path.join(dir, 'missing'))).toThrow(
      /Chromium not found or not executable at .*missing \(CHROMIUM_PATH\)/,
    );
    const plain = path.join(dir, 'plain');
    writeFileSync(plain, 'not a program', { mode: 0o644 });
    expect(() => chromiumLauncher(plain)).toThrow(/not executable at .*plain/);
  });
});
