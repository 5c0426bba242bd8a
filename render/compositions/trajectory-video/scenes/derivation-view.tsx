import React from 'react';
import { interpolate } from 'remotion';
import { lastAtOrBefore } from '../../../../lib/video/chapters';
import { markedTex } from '../../../../lib/video/equation-diff';
import { MOVE_FRAMES } from '../../../../lib/video/equation-morph';
import type { DerivationBeat, DerivationScene, GlyphPath } from '../schema';
import { theme } from '../theme';
import { caption, enter, MarkdownView, RichTextView } from './common';
import { MorphingEquation, StillEquation } from './equation-morph';
import { Header } from './step-view';

/**
 * A derivation built up equation by equation: the prose that leads to each display equation,
 * then the equation, growing out of the previous one (shown dimmed above, what went struck
 * through in red): the terms both share move to their new places, the new ones fade in, lit
 * amber when the step changed them (equation-morph.tsx). Equations come typeset as SVG glyphs in
 * the props (lib/video/tex-svg.ts), so every frame is a pure function of the props and the frame
 * number; one MathJax could not typeset is drawn by KaTeX with marker colours (lib/video/equation-diff.ts
 * markedTex, lib/video/equation-morph.ts morphTex) restyled per frame.
 */

/** the last equation's em, dimmed above the new one */
const PREVIOUS_EM_PX = 22;

const GONE_MARKER = '#fe0002';

/** The marker colour as the typeset HTML carries it: React writes inline colours as rgb(). */
const markerSelector = (scope: string, hex: string) => {
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  return `${scope} [style*="${hex}"], ${scope} [style*="rgb(${r}, ${g}, ${b})"]`;
};

const EquationNumber: React.FC<{ n: number; color: string }> = ({ n, color }) => (
  <span style={{ fontFamily: theme.mono, fontSize: 22, color, flex: 'none', paddingLeft: 16 }}>({n})</span>
);

const Equation: React.FC<{ tex: string; fontSize: number; className: string }> = ({ tex, fontSize, className }) => (
  <div className={className} style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
    <MarkdownView source={`$$${tex}$$`} style={{ fontSize, lineHeight: 1.3, color: theme.text }} />
  </div>
);

/**
 * The stylesheet is the same on every frame: a stylesheet that changed per frame made Chromium
 * recompute the style of the whole frame, and a blurred text-shadow repainted every glyph of the
 * equation. The flare is a background behind the changed leaves, set on them alone (no blur).
 */
const DIFF_CSS = `
  ${markerSelector('.wd-eq-prev', GONE_MARKER)} { color: ${theme.fail} !important; text-decoration: line-through; text-decoration-color: rgba(248,81,73,0.9); }
`;

const BeatView: React.FC<{
  beat: DerivationBeat;
  frame: number;
  first: boolean;
  reasoning: string | null;
  table: readonly GlyphPath[] | undefined;
}> = ({ beat, frame, first, reasoning, table }) => {
  const t = frame - beat.from;
  // the equation follows its prose by a moment; the highlight flares, then stays as a tint
  const eqFrom = beat.prose.length > 0 ? 10 : 0;
  // a step from the last equation lights up once its terms have moved and the new ones are in
  const litFrom = eqFrom + (beat.previous && beat.equation ? Math.round(MOVE_FRAMES * 0.6) : 0);
  // in steps of 1/20: each frame the flare changes repaints the whole equation box, and a step
  // of 1/20 (about 1% of the tint's opacity) is not visible, so the fade repaints every other frame
  const flare =
    Math.round(
      interpolate(t, [litFrom, litFrom + 8, litFrom + 40], [0, 1, 0.35], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' }) * 20,
    ) / 20;
  const eq = beat.equation;
  const prev = beat.previous;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 14 }}>
      <style>{DIFF_CSS}</style>
      {prev ? (
        <div style={{ display: 'flex', alignItems: 'center', opacity: 0.6, ...enter(frame, beat.from, 6) }}>
          {prev.svg && table ? (
            <StillEquation eq={prev} table={table} em={PREVIOUS_EM_PX} />
          ) : (
            <Equation tex={markedTex(prev.pieces, GONE_MARKER)} fontSize={PREVIOUS_EM_PX} className="wd-eq-prev" />
          )}
          <EquationNumber n={prev.number} color={theme.faint} />
        </div>
      ) : null}
      {first && reasoning ? (
        <div
          style={{
            display: 'flex',
            gap: 10,
            padding: '8px 12px',
            borderRadius: 8,
            background: 'rgba(194,151,255,0.07)',
            border: '1px solid rgba(194,151,255,0.22)',
            ...enter(frame, beat.from, 6),
          }}
        >
          <span style={{ ...caption('#c297ff'), paddingTop: 3 }}>Reasoning</span>
          <span style={{ fontSize: 22, lineHeight: 1.45, color: theme.muted, fontStyle: 'italic' }}>{reasoning}</span>
        </div>
      ) : null}
      {beat.prose.length > 0 ? (
        <div style={enter(frame, beat.from, 8)}>
          <RichTextView text={beat.prose} style={{ fontSize: eq ? 22 : 24, lineHeight: 1.45, color: theme.text }} />
        </div>
      ) : null}
      {eq ? (
        <div
          style={{
            display: 'flex',
            alignItems: 'center',
            padding: '10px 16px',
            borderRadius: 10,
            background: theme.panel,
            border: `1px solid ${prev && flare > 0 ? `rgba(210,153,34,${(0.15 + flare * 0.5).toFixed(2)})` : theme.border}`,
            // growing out of the last equation it is there from the start; the first one enters
            ...(prev ? {} : enter(frame, beat.from + eqFrom, 10)),
          }}
        >
          <MorphingEquation beat={beat} table={table} t={t - eqFrom} flare={prev ? flare : 0} />
          <EquationNumber n={eq.number} color={theme.muted} />
        </div>
      ) : null}
    </div>
  );
};

export const DerivationView: React.FC<{ scene: DerivationScene; frame: number }> = ({ scene, frame }) => {
  const i = Math.max(
    0,
    lastAtOrBefore(scene.beats, frame, (b) => b.from),
  );
  const beat = scene.beats[i]!;
  const shown = beat.equation?.number ?? beat.previous?.number ?? 0;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, height: '100%' }}>
      <Header card={scene.card} note={`derivation · equation ${Math.max(1, shown)} of ${scene.equations}`} />
      <div style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}>
        <BeatView key={i} beat={beat} frame={frame} first={i === 0} reasoning={scene.card.reasoning} table={scene.glyphs} />
      </div>
      <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        {scene.beats.map((b, k) => (
          <div
            key={k}
            style={{
              height: 4,
              flex: b.duration,
              borderRadius: 2,
              background: k < i ? theme.muted : k === i ? theme.accent : theme.panelRaised,
            }}
          />
        ))}
      </div>
    </div>
  );
};
