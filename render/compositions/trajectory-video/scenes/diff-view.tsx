import React from 'react';
import type { DiffFile, DiffScene } from '../schema';
import { highlightLine, tokenColor } from '../../../ui/highlight';
import { theme } from '../theme';
import { enter, OmittedMarker, Tag } from './common';

const LINE_BG = { add: 'rgba(46,160,67,0.16)', del: 'rgba(248,81,73,0.16)', context: 'transparent' } as const;
const SIGN_COLOR = { add: '#56d364', del: '#ff7b72', context: theme.faint } as const;
const SIGN = { add: '+', del: '-', context: ' ' } as const;

const FileDiff: React.FC<{ file: DiffFile }> = ({ file }) => {
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
        <span style={{ fontFamily: theme.mono, fontSize: 13, fontWeight: 700, color: theme.text }}>{name}</span>
        {status ? <span style={{ fontSize: 12, color: theme.faint }}>{status}</span> : null}
        {file.language ? (
          <span style={{ fontSize: 11, color: theme.faint, padding: '0 6px', border: `1px solid ${theme.border}`, borderRadius: 4 }}>
            {file.language}
          </span>
        ) : null}
        <div style={{ flex: 1 }} />
        <span style={{ fontFamily: theme.mono, fontSize: 13, color: '#56d364' }}>+{file.additions}</span>
        <span style={{ fontFamily: theme.mono, fontSize: 13, color: '#ff7b72' }}>−{file.deletions}</span>
      </div>
      {file.hunks.map((h, hi) => (
        <div key={hi}>
          <div
            style={{
              fontFamily: theme.mono,
              fontSize: 12,
              color: '#79c0ff',
              background: 'rgba(56,139,253,0.10)',
              padding: '2px 12px',
              whiteSpace: 'pre',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            }}
          >
            {h.header}
          </div>
          {h.lines.map((l, li) => (
            <div
              key={li}
              style={{
                display: 'flex',
                fontFamily: theme.mono,
                fontSize: 13,
                lineHeight: '18px',
                background: LINE_BG[l.kind],
                whiteSpace: 'pre',
              }}
            >
              <span style={{ width: 40, flex: 'none', textAlign: 'right', paddingRight: 6, color: theme.faint, opacity: 0.7 }}>
                {l.oldNo ?? ''}
              </span>
              <span style={{ width: 40, flex: 'none', textAlign: 'right', paddingRight: 8, color: theme.faint, opacity: 0.7 }}>
                {l.newNo ?? ''}
              </span>
              <span style={{ width: 16, flex: 'none', color: SIGN_COLOR[l.kind] }}>{SIGN[l.kind]}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', color: '#c9d1d9' }}>
                {highlightLine(l.text, file.language).map(([text, type], k) => (
                  <span key={k} style={type ? { color: tokenColor[type] ?? '#c9d1d9' } : undefined}>
                    {text}
                  </span>
                ))}
              </span>
            </div>
          ))}
        </div>
      ))}
      {file.omittedLines > 0 ? (
        <div style={{ padding: '0 12px' }}>
          <OmittedMarker lines={file.omittedLines} what="more diff lines" />
        </div>
      ) : null}
    </div>
  );
};

export const DiffView: React.FC<{ scene: DiffScene; frame: number }> = ({ scene, frame }) => (
  <div style={{ display: 'flex', flexDirection: 'column', gap: 12, ...enter(frame, scene.from) }}>
    <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
      <Tag color="#56d364">DIFF</Tag>
      <span style={{ fontSize: 15, fontWeight: 600, color: theme.text }}>
        {scene.step !== null ? `Step ${scene.step + 1} · ${scene.title}` : 'Final submission'}
      </span>
      <span style={{ fontSize: 13, color: theme.faint }}>
        {scene.files.length + scene.omittedFiles} file{scene.files.length + scene.omittedFiles === 1 ? '' : 's'}
      </span>
    </div>
    {scene.files.map((f, i) => (
      <FileDiff key={i} file={f} />
    ))}
    {scene.omittedFiles > 0 ? <OmittedMarker lines={scene.omittedFiles} what="more files" /> : null}
  </div>
);
