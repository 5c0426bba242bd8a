import type { DiffFile, DiffHunk, DiffLine } from './schema';

/**
 * Unified diffs found in free text (tool arguments, observations, submissions), parsed into
 * files and hunks with per-line kinds and line numbers, plus edit-style tool arguments
 * (old_str/new_str) turned into a one-hunk diff. Pure.
 */

export interface ParsedDiffFile {
  oldPath: string | null;
  newPath: string | null;
  hunks: DiffHunk[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

function cleanPath(p: string): string | null {
  const s = p.replace(/\t.*$/, '').trim();
  if (s === '/dev/null' || s === '') return null;
  return s.replace(/^[ab]\//, '');
}

/** Every unified diff in the text (files in order). Hunks without file headers count as one file. */
export function findUnifiedDiffs(text: string): ParsedDiffFile[] {
  if (!text.includes('@@ -')) return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const files: ParsedDiffFile[] = [];
  let current: ParsedDiffFile | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const git = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (git) {
      current = { oldPath: git[1]!, newPath: git[2]!, hunks: [] };
      files.push(current);
      i++;
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const oldPath = cleanPath(line.slice(4));
      const newPath = cleanPath(lines[i + 1]!.slice(4));
      if (current && current.hunks.length === 0 && (current.oldPath !== null || current.newPath !== null)) {
        // the ---/+++ pair right after a `diff --git` line: refine /dev/null sides
        current.oldPath = oldPath;
        current.newPath = newPath;
      } else {
        current = { oldPath, newPath, hunks: [] };
        files.push(current);
      }
      i += 2;
      continue;
    }
    const h = HUNK.exec(line);
    if (h) {
      if (!current) {
        current = { oldPath: null, newPath: null, hunks: [] };
        files.push(current);
      }
      let oldNo = Number(h[1]);
      let newNo = Number(h[3]);
      let oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      let newLeft = h[4] === undefined ? 1 : Number(h[4]);
      const hunk: DiffHunk = { header: line, lines: [] };
      i++;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
        const l = lines[i]!;
        const mark = l[0];
        if (mark === '\\') {
          i++;
          continue;
        }
        if (mark === '+' && newLeft > 0) {
          hunk.lines.push({ kind: 'add', text: l.slice(1), oldNo: null, newNo: newNo++ });
          newLeft--;
        } else if (mark === '-' && oldLeft > 0 && !l.startsWith('--- ')) {
          hunk.lines.push({ kind: 'del', text: l.slice(1), oldNo: oldNo++, newNo: null });
          oldLeft--;
        } else if ((mark === ' ' || l === '') && oldLeft > 0 && newLeft > 0) {
          hunk.lines.push({ kind: 'context', text: l.slice(1), oldNo: oldNo++, newNo: newNo++ });
          oldLeft--;
          newLeft--;
        } else break;
        i++;
      }
      while (lines[i]?.startsWith('\\')) i++;
      if (hunk.lines.length > 0) current.hunks.push(hunk);
      continue;
    }
    i++;
  }
  return files.filter((f) => f.hunks.length > 0);
}

/** An edit expressed as old/new strings (str_replace_editor, Edit tools) as a one-hunk diff. */
export function editArgumentsDiff(args: unknown): ParsedDiffFile | null {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
  const a = args as Record<string, unknown>;
  const oldText = [a.old_str, a.old_string, a.oldText].find((v): v is string => typeof v === 'string');
  const newText = [a.new_str, a.new_string, a.newText].find((v): v is string => typeof v === 'string');
  if (oldText === undefined || newText === undefined || oldText === newText) return null;
  const filePath = [a.path, a.file_path, a.filePath, a.file].find((v): v is string => typeof v === 'string') ?? null;
  const lines: DiffLine[] = [
    ...oldText.split('\n').map((text): DiffLine => ({ kind: 'del', text, oldNo: null, newNo: null })),
    ...newText.split('\n').map((text): DiffLine => ({ kind: 'add', text, oldNo: null, newNo: null })),
  ];
  return { oldPath: filePath, newPath: filePath, hunks: [{ header: '@@ edit @@', lines }] };
}

const LANGUAGES: Record<string, string> = {
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  json: 'json',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'toml',
  rs: 'rust',
  go: 'go',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cxx: 'cpp',
  java: 'java',
  rb: 'ruby',
  css: 'css',
  scss: 'css',
  html: 'markup',
  xml: 'markup',
  svg: 'markup',
  md: 'markdown',
  sql: 'sql',
  tex: 'latex',
  kt: 'kotlin',
  php: 'php',
  swift: 'swift',
  cs: 'csharp',
};
const BASENAMES: Record<string, string> = { Dockerfile: 'docker', Makefile: 'makefile', '.bashrc': 'bash' };

/** A Prism language id for a file name, null when unknown. */
export function guessLanguage(filePath: string | null): string | null {
  if (!filePath) return null;
  const base = filePath.split('/').pop() ?? filePath;
  if (BASENAMES[base]) return BASENAMES[base]!;
  const dot = base.lastIndexOf('.');
  if (dot <= 0 && !base.startsWith('.')) return null;
  return LANGUAGES[base.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * Shapes parsed diffs for a scene: at most `maxFiles` files and `maxLines` diff lines in all
 * (hunk headers included), the rest counted as omitted.
 */
export function diffFilesForScene(
  parsed: ParsedDiffFile[],
  maxFiles: number,
  maxLines: number,
): { files: DiffFile[]; omittedFiles: number } {
  const files: DiffFile[] = [];
  let budget = maxLines;
  for (const f of parsed.slice(0, maxFiles)) {
    const all = f.hunks.flatMap((h) => h.lines);
    const additions = all.filter((l) => l.kind === 'add').length;
    const deletions = all.filter((l) => l.kind === 'del').length;
    const hunks: DiffHunk[] = [];
    let shown = 0;
    for (const h of f.hunks) {
      if (budget < 3) break;
      const take = Math.min(h.lines.length, budget - 1);
      hunks.push({ header: h.header, lines: h.lines.slice(0, take) });
      budget -= take + 1;
      shown += take;
    }
    if (hunks.length === 0 && files.length > 0) break;
    files.push({
      oldPath: f.oldPath,
      newPath: f.newPath,
      language: guessLanguage(f.newPath ?? f.oldPath),
      hunks,
      additions,
      deletions,
      omittedLines: all.length - shown,
    });
  }
  return { files, omittedFiles: parsed.length - files.length };
}
