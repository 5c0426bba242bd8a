import React, { useMemo } from 'react';
import { pieceAt, snapshotAt } from '../../../../lib/video/chapters';
import type { TerminalScene, TerminalStyle, TrajectoryVideoProps } from '../schema';
import { TERMINAL_DEFAULT_BG, TERMINAL_DEFAULT_FG, theme, type } from '../theme';
import { enter, FastForwardIcon, formatSeconds } from './common';

/** Width of a monospace cell relative to the font size (JetBrains Mono: 600/1000 em). */
const CELL_W = 0.6;
const LINE_H = 1.22;

function runStyle(s: TerminalStyle): React.CSSProperties {
  let fg = s.fg ?? TERMINAL_DEFAULT_FG;
  let bg = s.bg;
  if (s.inverse) {
    const f = fg;
    fg = bg ?? TERMINAL_DEFAULT_BG;
    bg = f;
  }
  const decoration = [s.underline ? 'underline' : '', s.strike ? 'line-through' : ''].filter(Boolean).join(' ');
  return {
    color: fg,
    background: bg ?? undefined,
    fontWeight: s.bold ? 700 : 400,
    fontStyle: s.italic ? 'italic' : undefined,
    opacity: s.dim ? 0.6 : undefined,
    textDecoration: decoration || undefined,
  };
}

/**
 * The rows the scene needs: down to the lowest one ever written or holding the cursor (a mostly
 * empty 120x40 terminal does not draw its empty rows). Pure in the scene.
 */
function usedRows(scene: TerminalScene, lines: Array<Array<[string, number]>>): number {
  let rows = 0;
  let maxRows = 0;
  for (const s of scene.snapshots) {
    maxRows = Math.max(maxRows, s.rows);
    s.lines.forEach((li, y) => {
      if ((lines[li] ?? []).some((r) => r[0].trim() !== '')) rows = Math.max(rows, y + 1);
    });
    if (s.cursor) rows = Math.max(rows, s.cursor[1] + 1);
  }
  return Math.min(maxRows, Math.max(1, rows));
}

type Run = [string, number];

/** A screen line's runs wrapped at `cols` columns (trailing blanks dropped): one or more rows as drawn. */
export function wrapRuns(runs: readonly Run[], cols: number): Run[][] {
  const text = runs.reduce((n, r) => n + r[0], '');
  const end = text.replace(/\s+$/, '').length;
  const rows: Run[][] = [[]];
  let col = 0;
  let at = 0;
  for (const [t, si] of runs) {
    let piece = t.slice(0, Math.max(0, end - at));
    at += t.length;
    while (piece.length > 0) {
      if (col === cols) {
        rows.push([]);
        col = 0;
      }
      const take = piece.slice(0, cols - col);
      rows[rows.length - 1]!.push([take, si]);
      col += take.length;
      piece = piece.slice(take.length);
    }
  }
  return rows;
}

/** The terminal replay: the emulator's snapshot for this frame, drawn as styled runs. */
export const TerminalView: React.FC<{
  props: TrajectoryVideoProps;
  scene: TerminalScene;
  frame: number;
  width: number;
  height: number;
}> = ({ props, scene, frame, width, height }) => {
  const table = props.terminal;
  const snap = snapshotAt(scene.snapshots, frame);
  const { piece, castTime } = pieceAt(scene.pieces, frame);
  const used = useMemo(() => usedRows(scene, table?.lines ?? []), [scene, table]);
  if (!table) return null;
  const chromeH = 40;
  const padX = 16;
  const padY = 12;
  // the type scale's code size, never smaller: a wide screen wraps its lines, a tall one shows the rows at the cursor
  const fontSize = type.code;
  const lineH = LINE_H * fontSize;
  const fitCols = Math.floor((width - padX * 2 - 2) / (CELL_W * fontSize));
  const fitRows = Math.floor((height - chromeH - padY * 2 - 2) / lineH);
  const cols = Math.min(snap.cols, fitCols);
  // each screen line as the rows it wraps to, down to the last used row
  const screen = snap.lines.slice(0, Math.min(snap.rows, used)).map((li) => wrapRuns(table.lines[li] ?? [], cols));
  const firstRowOf: number[] = [];
  let count = 0;
  for (const rows of screen) {
    firstRowOf.push(count);
    count += rows.length;
  }
  const cursor =
    snap.cursor && snap.cursor[1] < screen.length
      ? { row: firstRowOf[snap.cursor[1]]! + Math.floor(snap.cursor[0] / cols), col: snap.cursor[0] % cols }
      : null;
  // the window of rows shown: the last `fitRows` up to the cursor (or the last row), as a terminal scrolls
  const end = Math.max(cursor ? cursor.row + 1 : count, Math.min(count, fitRows));
  const top = Math.max(0, end - fitRows);
  const drawn = screen.flat().slice(top, top + fitRows);
  const viewRows = Math.max(1, Math.min(fitRows, Math.max(drawn.length, cursor ? cursor.row - top + 1 : 0)));
  const termW = Math.max(cols * CELL_W * fontSize + padX * 2, 480);
  const termH = viewRows * lineH + padY * 2;
  const styles = table.styles;
  const card = props.scenes.find((s) => s.kind === 'step' && s.cards.some((c) => c.card.index === scene.step));
  const stepCard = card?.kind === 'step' ? card.cards.find((c) => c.card.index === scene.step)?.card : undefined;
  const idleProgress = piece.idle ? (frame - piece.from) / piece.duration : 0;
  const marker = [...scene.markers].reverse().find((m) => m.frame <= frame);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0, ...enter(frame, scene.from, 6) }}>
      <div
        style={{
          width: termW,
          display: 'flex',
          alignItems: 'center',
          gap: 10,
          height: chromeH,
          padding: '0 14px',
          background: '#1d222b',
          borderRadius: '10px 10px 0 0',
          border: `1px solid ${theme.border}`,
          borderBottom: 'none',
        }}
      >
        <div style={{ display: 'flex', gap: 6 }}>
          {['#ff5f57', '#febc2e', '#28c840'].map((c) => (
            <div key={c} style={{ width: 11, height: 11, borderRadius: 6, background: c, opacity: 0.85 }} />
          ))}
        </div>
        <span
          style={{
            fontSize: type.min,
            color: theme.muted,
            fontWeight: 600,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {scene.step !== null ? `Terminal · step ${scene.step + 1}${stepCard ? ` · ${stepCard.actor}` : ''}` : 'Terminal recording'}
          {marker ? <span style={{ color: theme.faint, fontWeight: 400 }}> · {marker.label}</span> : null}
          {top > 0 || count > top + viewRows ? (
            <span style={{ color: theme.faint, fontWeight: 400 }}>
              {' '}
              · rows {top + 1}–{Math.min(count, top + viewRows)} of {count}
            </span>
          ) : null}
        </span>
        <div style={{ flex: 1 }} />
        {scene.speed > 1.05 ? (
          <span
            style={{
              fontFamily: theme.mono,
              fontSize: type.min,
              color: theme.warn,
              padding: '1px 6px',
              border: '1px solid rgba(210,153,34,0.5)',
              borderRadius: 4,
            }}
          >
            {scene.speed.toFixed(1)}×
          </span>
        ) : null}
        <span style={{ fontFamily: theme.mono, fontSize: type.min, color: theme.faint, flex: 'none' }}>
          {snap.cols}×{snap.rows}
        </span>
        <span style={{ fontFamily: theme.mono, fontSize: type.min, color: theme.text, minWidth: 90, textAlign: 'right', flex: 'none' }}>
          {castTime.toFixed(1)} s
        </span>
      </div>
      <div
        style={{
          position: 'relative',
          width: termW,
          height: termH,
          padding: `${padY}px ${padX}px`,
          background: TERMINAL_DEFAULT_BG,
          border: `1px solid ${theme.border}`,
          borderRadius: '0 0 10px 10px',
          fontFamily: theme.mono,
          fontSize,
          lineHeight: `${LINE_H * fontSize}px`,
          color: TERMINAL_DEFAULT_FG,
          whiteSpace: 'pre',
          overflow: 'hidden',
          fontVariantLigatures: 'none',
        }}
      >
        {drawn.map((runs, y) => (
          <div key={y} style={{ height: lineH }}>
            {runs.map(([text, si], k) => (
              <span key={k} style={runStyle(styles[si]!)}>
                {text}
              </span>
            ))}
          </div>
        ))}
        {cursor && cursor.row >= top && cursor.row < top + viewRows ? (
          <div
            style={{
              position: 'absolute',
              left: padX + cursor.col * CELL_W * fontSize,
              top: padY + (cursor.row - top) * lineH,
              width: CELL_W * fontSize,
              height: lineH,
              background: theme.accent,
              opacity: 0.75,
            }}
          />
        ) : null}
        {piece.idle ? (
          <div
            style={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              background: 'rgba(13,16,20,0.45)',
            }}
          >
            <div
              style={{
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'stretch',
                gap: 8,
                padding: '14px 22px',
                borderRadius: 12,
                background: '#1d222b',
                border: `1px solid ${theme.border}`,
                fontFamily: theme.sans,
              }}
            >
              <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
                <FastForwardIcon color={theme.warn} />
                <span style={{ fontSize: type.body, fontWeight: 700, color: theme.text }}>
                  {formatSeconds(piece.castTo - piece.castFrom)} idle
                </span>
              </div>
              <div style={{ height: 3, borderRadius: 2, background: theme.border }}>
                <div style={{ width: `${Math.round(idleProgress * 100)}%`, height: 3, borderRadius: 2, background: theme.warn }} />
              </div>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
};
