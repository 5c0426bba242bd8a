#!/usr/bin/env node
// `npx witness <command>` (and `npm run -s witness --`): the CLI, cli/main.ts, in this process.
//
// The ratings commands (agreement, rank, estimate) are used on large files from scripts, where
// start-up counts: they run from a plain-JS bundle of cli/main.ts and the lib/ modules they
// import (esbuild, node_modules left external), built on first use and rebuilt when any of its
// input files changed (their sizes and mtimes are kept beside it), so no TypeScript is
// transpiled at start. Every other command, and these when the bundle cannot be built, runs
// through tsx's loader (what `node --import tsx` does).
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED = new Set(['agreement', 'rank', 'estimate']);

async function bundledMain() {
  const dir = path.join(root, 'node_modules', '.cache', 'witness-cli');
  const bundle = path.join(dir, 'main.mjs');
  const manifest = path.join(dir, 'inputs.json');
  const fresh = () => {
    try {
      const inputs = JSON.parse(readFileSync(manifest, 'utf8'));
      return inputs.every(([file, size, mtime]) => {
        const s = statSync(path.join(root, file));
        return s.size === size && s.mtimeMs === mtime;
      });
    } catch {
      return false;
    }
  };
  if (!fresh()) {
    try {
      const { build } = await import('esbuild');
      const result = await build({
        absWorkingDir: root,
        entryPoints: ['cli/main.ts'],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        // the other commands' modules stay out of the bundle: they run through tsx
        plugins: [
          {
            name: 'only-ratings-commands',
            setup(b) {
              b.onResolve({ filter: /^\.\/commands\// }, (args) =>
                BUNDLED.has(path.basename(args.path).replace(/\.ts$/, '')) ? undefined : { path: args.path, external: true },
              );
            },
          },
        ],
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      mkdirSync(dir, { recursive: true });
      const inputs = Object.keys(result.metafile.inputs).map((file) => {
        const s = statSync(path.join(root, file));
        return [file, s.size, s.mtimeMs];
      });
      // atomic: a concurrent run reads the old bundle or the new one, never half of one
      const tmp = `${bundle}.${process.pid}.tmp`;
      writeFileSync(tmp, result.outputFiles[0].contents);
      renameSync(tmp, bundle);
      writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify(inputs));
      renameSync(`${manifest}.${process.pid}.tmp`, manifest);
    } catch {
      return null; // no esbuild, a read-only install: tsx below
    }
  }
  return import(pathToFileURL(bundle).href);
}

const command = process.argv[2];
const bundled = BUNDLED.has(command) ? await bundledMain() : null;
if (bundled) bundled.runAsEntry();
else {
  await import(pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href);
  const { runAsEntry } = await import(pathToFileURL(path.join(root, 'cli', 'main.ts')).href);
  runAsEntry();
}
