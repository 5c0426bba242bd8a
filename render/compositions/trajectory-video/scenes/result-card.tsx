import React from 'react';
import { interpolate } from 'remotion';
import type { AnswerPlot, ResultScene } from '../schema';
import { theme, type } from '../theme';
import { revealedPaths } from '../../../../lib/video/plot-reveal';
import { caption, enter, MarkdownView, RichTextView } from './common';

/** The final answer on its own card, and its plot (sampled in lib/video/plot.ts) drawn as SVG. */

const SOURCE_LABEL: Record<ResultScene['source'], string> = {
  boxed: 'boxed result',
  'answer-line': 'ANSWER line',
  'last-equation': 'last equation of the final step',
};

const fmt = (v: number) => {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(1).replace('e', '×10^').replace('+', '');
  return String(Number(v.toPrecision(4)));
};

const PlotView: React.FC<{ plot: AnswerPlot; frame: number; from: number; width: number; height: number }> = ({
  plot,
  frame,
  from,
  width,
  height,
}) => {
  const left = 96;
  const right = 16;
  const top = 10;
  const bottom = 40;
  const w = width - left - right;
  const h = height - top - bottom;
  const x = (v: number) => left + ((v - plot.xFrom) / (plot.xTo - plot.xFrom)) * w;
  const y = (v: number) => top + (1 - (v - plot.yFrom) / (plot.yTo - plot.yFrom)) * h;
  // the curve draws itself over a second and a half, left to right
  const reveal = interpolate(frame - from, [12, 57], [0, 1], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  const paths = revealedPaths(plot, reveal, x, y);
  const zeroY = plot.yFrom < 0 && plot.yTo > 0 ? y(0) : null;
  return (
    <div style={{ position: 'relative', width, height }}>
      <svg width={width} height={height} style={{ position: 'absolute', left: 0, top: 0 }}>
        <rect x={left} y={top} width={w} height={h} fill={theme.panel} stroke={theme.border} />
        {plot.yTicks.map((v) => (
          <g key={`y${v}`}>
            <line x1={left} x2={left + w} y1={y(v)} y2={y(v)} stroke={theme.border} strokeWidth={1} />
            <text x={left - 8} y={y(v) + 7} fill={theme.muted} fontSize={type.min} textAnchor="end" fontFamily={theme.mono}>
              {fmt(v)}
            </text>
          </g>
        ))}
        {plot.xTicks.map((v) => (
          <g key={`x${v}`}>
            <line x1={x(v)} x2={x(v)} y1={top} y2={top + h} stroke={theme.border} strokeWidth={1} />
            <text x={x(v)} y={top + h + 26} fill={theme.muted} fontSize={type.min} textAnchor="middle" fontFamily={theme.mono}>
              {fmt(v)}
            </text>
          </g>
        ))}
        {zeroY !== null ? <line x1={left} x2={left + w} y1={zeroY} y2={zeroY} stroke={theme.faint} strokeWidth={1.2} /> : null}
        {paths.map((p, k) => (
          <path key={k} d={p} fill="none" stroke={theme.accent} strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />
        ))}
      </svg>
      <div style={{ position: 'absolute', left: left + w - 40, top: top + h + 8, fontSize: type.body, color: theme.text }}>
        <MarkdownView source={`$${plot.xTex}$`} />
      </div>
      <div style={{ position: 'absolute', left: 4, top: top + h / 2 - 16, width: 40, fontSize: type.body, color: theme.text }}>
        <MarkdownView source={`$${plot.yTex}$`} />
      </div>
    </div>
  );
};

export const ResultCard: React.FC<{ scene: ResultScene; frame: number; width: number; height: number }> = ({
  scene,
  frame,
  width,
  height,
}) => {
  const plot = scene.plot;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 14, height: '100%', ...enter(frame, scene.from, 10) }}>
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 12 }}>
        <span style={{ fontSize: type.min, letterSpacing: 2, textTransform: 'uppercase', color: theme.accent, fontWeight: 700 }}>
          Result
        </span>
        <span style={{ fontSize: type.min, color: theme.muted }}>
          {SOURCE_LABEL[scene.source]} · step {scene.step + 1}
        </span>
      </div>
      <div
        style={{
          padding: '12px 18px',
          borderRadius: 10,
          background: theme.panel,
          border: `1px solid ${theme.accent}`,
          boxShadow: '0 0 0 3px rgba(110,168,255,0.12)',
        }}
      >
        <RichTextView text={scene.answer} style={{ fontSize: plot ? type.body : type.lead, lineHeight: 1.45, color: theme.text }} />
      </div>
      {plot ? (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 }}>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', fontSize: type.min, color: theme.muted }}>
            <span style={caption()}>Plotted</span>
            <span style={{ fontSize: type.body, color: theme.text }}>
              <MarkdownView source={`$${plot.formula}$`} />
            </span>
            <span>for</span>
            <span style={{ fontSize: type.body, color: theme.text }}>
              <MarkdownView source={`$${plot.rangeTex}$`} />
            </span>
            {plot.given.length > 0 ? <span>with</span> : null}
            {plot.given.map((g) => (
              <span
                key={g}
                style={{
                  padding: '1px 8px',
                  borderRadius: 999,
                  background: theme.panelRaised,
                  border: `1px solid ${theme.border}`,
                  color: theme.text,
                }}
              >
                <MarkdownView source={`$${g}$`} />
              </span>
            ))}
          </div>
          <PlotView
            plot={plot}
            frame={frame}
            from={scene.from}
            width={Math.min(width, 860)}
            height={Math.max(180, Math.min(300, height - 250))}
          />
        </div>
      ) : null}
    </div>
  );
};
