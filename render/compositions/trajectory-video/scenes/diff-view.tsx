import React from 'react';
import type { DiffFile, DiffScene } from '../schema';
import { highlightLine, tokenColor } from '../../../ui/highlight';
import { layout, theme, type } from '../theme';
import { LINE } from '../../../../lib/video/card-pages';
import { enter, OmittedMarker, Tag } from './common';

const LINE_BG = { add: 'rgba(46,160,67,0.16)', del: 'rgba(248,81,73,0.16)', context: 'transparent' } as const;
const SIGN_COLOR = { add: '#56d364', del: '#ff7b72', context: theme.faint } as const;
const SIGN = { add: '+', del: '-', context: ' ' } as const;

/** Sizes a diff page is laid out by: a file's header, a hunk's header, a code line (wrapped at the gutter's right). */
const FILE_HEAD_PX = 44;
const HUNK_HEAD_PX = Math.ceil(type.min * LINE.code) + 4;
const CODE_LINE_PX = type.code * LINE.code;
const GUTTER_PX = 2 * 56 + 22 + 24;
const codeLines = (text: string, width: number) =>
  Math.max(1, Math.ceil(text.length / Math.floor((width - GUTTER_PX) / (type.code * 0.6))));

/** One row of a diff scene: a hunk's header or one of its lines. */
export interface DiffRow {
  file: number;
  hunk: number;
  /** -1: the hunk's header */
  line: number;
}

/**
 * The diff scene's pages: its files' hunks and lines in order, as many as fit the scene's room
 * at the code size (long lines wrap), each page shown for its share of the scene by its rows.
 * Pure in the scene.
 */
export function diffPages(
  files: readonly DiffFile[],
  width: number = layout.scene.width,
  height: number = layout.scene.height,
): DiffRow[][] {
  const room = height - 48;
  const pages: DiffRow[][] = [[]];
  let used = 0;
  let fileOnPage = -1;
  files.forEach((f, fi) => {
    f.hunks.forEach((h, hi) => {
      const rows: Array<[DiffRow, number]> = [[{ file: fi, hunk: hi, line: -1 }, HUNK_HEAD_PX]];
      h.lines.forEach((l, li) => rows.push([{ file: fi, hunk: hi, line: li }, codeLines(l.text, width) * CODE_LINE_PX]));
      for (const [row, px] of rows) {
        const head = fileOnPage === fi ? 0 : FILE_HEAD_PX + 12;
        if (pages[pages.length - 1]!.length > 0 && used + head + px > room) {
          pages.push([]);
          used = 0;
          fileOnPage = -1;
        }
        used += (fileOnPage === fi ? 0 : FILE_HEAD_PX + 12) + px;
        fileOnPage = fi;
        pages[pages.length - 1]!.push(row);
      }
    });
  });
  return pages;
}

const FileDiff: React.FC<{ file: DiffFile; rows: readonly DiffRow[] }> = ({ file, rows }) => {
  const name = file.newPath ?? file.oldPath ?? 'patch';
  const renamed = file.oldPath && file.newPath && file.oldPath !== file.newPath;
  const status =
    file.oldPath === null && file.newPath !== null
      ? 'new file'
      : file.newPath === null && file.oldPath !== null
        ? 'deleted'
        : renamed
          ? `renamed from ${file.oldPath}`
          : null;
  return (
    <div style={{ border: `1px solid ${theme.border}`, borderRadius: 8, overflow: 'hidden', background: '#0a0c10' }}>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 10,
          padding: '7px 12px',
          background: theme.panelRaised,
          borderBottom: `1px solid ${theme.border}`,
        }}
      >
        <span style={{ fontFamily: theme.mono, fontSize: type.min, fontWeight: 700, color: theme.text, overflowWrap: 'anywhere' }}>
          {name}
        </span>
        {status ? <span style={{ fontSize: type.min, color: theme.faint }}>{status}</span> : null}
        {file.language ? (
          <span style={{ fontSize: type.min, color: theme.faint, padding: '0 6px', border: `1px solid ${theme.border}`, borderRadius: 4 }}>
            {file.language}
          </span>
        ) : null}
        <div style={{ flex: 1 }} />
        <span style={{ fontFamily: theme.mono, fontSize: type.min, color: '#56d364' }}>+{file.additions}</span>
        <span style={{ fontFamily: theme.mono, fontSize: type.min, color: '#ff7b72' }}>−{file.deletions}</span>
      </div>
      {rows.map((r) => {
        const h = file.hunks[r.hunk]!;
        if (r.line < 0)
          return (
            <div
              key={`${r.hunk}h`}
              style={{
                fontFamily: theme.mono,
                fontSize: type.min,
                lineHeight: LINE.code,
                color: '#79c0ff',
                background: 'rgba(56,139,253,0.10)',
                padding: '2px 12px',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {h.header}
            </div>
          );
        const l = h.lines[r.line]!;
        return (
          <div
            key={`${r.hunk}.${r.line}`}
            style={{
              display: 'flex',
              fontFamily: theme.mono,
              fontSize: type.code,
              lineHeight: LINE.code,
              background: LINE_BG[l.kind],
              whiteSpace: 'pre-wrap',
            }}
          >
            <span style={{ width: 56, flex: 'none', textAlign: 'right', paddingRight: 6, color: theme.faint }}>{l.oldNo ?? ''}</span>
            <span style={{ width: 56, flex: 'none', textAlign: 'right', paddingRight: 8, color: theme.faint }}>{l.newNo ?? ''}</span>
            <span style={{ width: 22, flex: 'none', color: SIGN_COLOR[l.kind] }}>{SIGN[l.kind]}</span>
            <span style={{ minWidth: 0, overflowWrap: 'anywhere', color: '#c9d1d9' }}>
              {highlightLine(l.text, file.language).map(([text, token], k) => (
                <span key={k} style={token ? { color: tokenColor[token] ?? '#c9d1d9' } : undefined}>
                  {text}
                </span>
              ))}
            </span>
          </div>
        );
      })}
      {file.omittedLines > 0 && rows.at(-1)?.hunk === file.hunks.length - 1 && rows.at(-1)?.line === file.hunks.at(-1)!.lines.length - 1 ? (
        <div style={{ padding: '0 12px' }}>
          <OmittedMarker lines={file.omittedLines} what="more diff lines" />
        </div>
      ) : null}
    </div>
  );
};

/** Pages of a scene's diff, computed once per scene (the same object on every frame it shows). */
const pagesOf = new WeakMap<DiffScene, DiffRow[][]>();

export const DiffView: React.FC<{ scene: DiffScene; frame: number }> = ({ scene, frame }) => {
  let pages = pagesOf.get(scene);
  if (!pages) {
    pages = diffPages(scene.files);
    pagesOf.set(scene, pages);
  }
  // each page its share of the scene by its rows (a line of code is read, not skimmed)
  const total = pages.reduce((n, p) => n + p.length, 0);
  let t = ((frame - scene.from) / Math.max(1, scene.duration)) * total;
  let k = 0;
  while (k < pages.length - 1 && t >= pages[k]!.length) {
    t -= pages[k]!.length;
    k++;
  }
  const page = pages[k]!;
  const files = [...new Set(page.map((r) => r.file))];
  const count = scene.files.length + scene.omittedFiles;
  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', gap: 12, ...enter(frame, scene.from) }}
      data-diff-page={`${k + 1}/${pages.length}`}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
        <Tag color="#56d364">DIFF</Tag>
        <span style={{ fontSize: type.body, fontWeight: 600, color: theme.text }}>
          {scene.step !== null ? `Step ${scene.step + 1} · ${scene.title}` : 'Final submission'}
        </span>
        <span style={{ fontSize: type.min, color: theme.faint }}>
          {count} file{count === 1 ? '' : 's'}
          {pages.length > 1 ? ` · page ${k + 1} of ${pages.length}` : ''}
        </span>
      </div>
      {files.map((fi) => (
        <FileDiff key={fi} file={scene.files[fi]!} rows={page.filter((r) => r.file === fi)} />
      ))}
      {scene.omittedFiles > 0 && k === pages.length - 1 ? <OmittedMarker lines={scene.omittedFiles} what="more files" /> : null}
    </div>
  );
};
