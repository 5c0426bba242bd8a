#!/usr/bin/env node
// `npx witness <command>`: the same CLI as `npm run -s witness --`. tsx's loader is registered in
// this process (what `node --import tsx` does) and cli/main.ts runs here: no second node process.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await import(pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href);
const { runAsEntry } = await import(pathToFileURL(path.join(root, 'cli', 'main.ts')).href);
runAsEntry();
