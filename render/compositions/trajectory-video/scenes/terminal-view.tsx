import React, { useMemo } from 'react';
import { pieceAt, snapshotAt } from '../../../../lib/video/chapters';
import type { TerminalScene, TerminalStyle, TrajectoryVideoProps } from '../schema';
import { TERMINAL_DEFAULT_BG, TERMINAL_DEFAULT_FG, theme } from '../theme';
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
 * The part of the screen the scene needs: rows down to the lowest one ever written or holding
 * the cursor, columns out to the longest line (at least 16 x 64), so a mostly empty 120x40
 * terminal is drawn large enough to read. Pure in the scene.
 */
function usedArea(scene: TerminalScene, lines: Array<Array<[string, number]>>): { rows: number; cols: number } {
  let rows = 0;
  let cols = 0;
  let maxRows = 0;
  let maxCols = 0;
  for (const s of scene.snapshots) {
    maxRows = Math.max(maxRows, s.rows);
    maxCols = Math.max(maxCols, s.cols);
    s.lines.forEach((li, y) => {
      const len = (lines[li] ?? []).reduce((n, r) => n + r[0].length, 0);
      if (len > 0) rows = Math.max(rows, y + 1);
      cols = Math.max(cols, len);
    });
    if (s.cursor) {
      rows = Math.max(rows, s.cursor[1] + 1);
      cols = Math.max(cols, s.cursor[0] + 1);
    }
  }
  return { rows: Math.min(maxRows, Math.max(16, rows + 1)), cols: Math.min(maxCols, Math.max(64, cols + 2)) };
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
  const area = useMemo(() => usedArea(scene, table?.lines ?? []), [scene, table]);
  if (!table) return null;
  const chromeH = 40;
  const padX = 16;
  const padY = 12;
  const viewCols = Math.min(snap.cols, area.cols);
  const viewRows = Math.min(snap.rows, area.rows);
  const fontSize = Math.min(18, (width - padX * 2) / (viewCols * CELL_W), (height - chromeH - padY * 2) / (viewRows * LINE_H));
  const termW = Math.max(viewCols * CELL_W * fontSize + padX * 2, 480);
  const termH = viewRows * LINE_H * fontSize + padY * 2;
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
          style={{ fontSize: 13, color: theme.muted, fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {scene.step !== null ? `Terminal · step ${scene.step + 1}${stepCard ? ` · ${stepCard.actor}` : ''}` : 'Terminal recording'}
          {marker ? <span style={{ color: theme.faint, fontWeight: 400 }}> · {marker.label}</span> : null}
        </span>
        <div style={{ flex: 1 }} />
        {scene.speed > 1.05 ? (
          <span
            style={{
              fontFamily: theme.mono,
              fontSize: 12,
              color: theme.warn,
              padding: '1px 6px',
              border: '1px solid rgba(210,153,34,0.5)',
              borderRadius: 4,
            }}
          >
            {scene.speed.toFixed(1)}×
          </span>
        ) : null}
        <span style={{ fontFamily: theme.mono, fontSize: 12, color: theme.faint }}>
          {snap.cols}×{snap.rows}
        </span>
        <span style={{ fontFamily: theme.mono, fontSize: 13, color: theme.text, minWidth: 74, textAlign: 'right' }}>
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
        {snap.lines.slice(0, viewRows).map((li, y) => (
          <div key={y} style={{ height: LINE_H * fontSize }}>
            {(table.lines[li] ?? []).map(([text, si], k) => (
              <span key={k} style={runStyle(styles[si]!)}>
                {text}
              </span>
            ))}
          </div>
        ))}
        {snap.cursor ? (
          <div
            style={{
              position: 'absolute',
              left: padX + snap.cursor[0] * CELL_W * fontSize,
              top: padY + snap.cursor[1] * LINE_H * fontSize,
              width: CELL_W * fontSize,
              height: LINE_H * fontSize,
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
                <span style={{ fontSize: 20, fontWeight: 700, color: theme.text }}>
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
