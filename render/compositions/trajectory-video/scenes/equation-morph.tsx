import { interpolatePath } from '@remotion/paths';
import React, { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { continueRender, delayRender, Easing } from 'remotion';
import {
  equationMorph,
  glyphFrame,
  leafOfColor,
  morphTex,
  MOVE_FRAMES,
  type EquationMorph,
  type GlyphFrame,
  type GlyphFrameInput,
  type GlyphRole,
} from '../../../../lib/video/equation-morph';
import type { DerivationBeat, GlyphPath } from '../schema';
import { theme } from '../theme';
import { MarkdownView } from './common';

/**
 * A display equation that grows out of the last one (lib/video/equation-morph.ts), the way
 * 3Blue1Brown's TransformMatchingTex does: the leaves both share move from where they stood in
 * the last equation to their places in the new one, a changed leaf in a removed one's slot morphs
 * out of it, the new leaves fade in (lit when the diff says they changed), the removed ones are
 * struck through and fade out.
 *
 * The equations come typeset as SVG glyphs in the props (lib/video/tex-svg.ts, MathJax where the
 * props are built): every frame is `glyphFrame` of the props and the frame, drawn as paths; nothing
 * is measured in the DOM, and no state is carried between frames. An equation MathJax could not
 * typeset (its `svg` null, or props from before the glyphs) is typeset by KaTeX in the frame and
 * its leaves measured and moved (KatexMorphingEquation below).
 */

/** a display equation's em in the 1280x720 frame (the review page plays it at 718 px: 19 px there) */
export const EQUATION_EM_PX = 34;

const ROLE_FILL: Record<GlyphRole, string> = { text: theme.text, lit: theme.warn, gone: theme.fail, faded: theme.muted };
/** theme.warn as the flare's tint */
const TINT = (a: number) => `rgba(210,153,34,${a.toFixed(3)})`;

/** The glyphs, rules, strikes and tints of one frame, drawn on the frame's canvas at `em` px to the em (shrunk to fit the box). */
const GlyphSvg: React.FC<{ frame: GlyphFrame; table: readonly GlyphPath[]; em: number; flare: number; className?: string }> = React.memo(
  function GlyphSvg({ frame, table, em, flare, className }) {
    const { view } = frame;
    // room for the strikes and tints past the glyphs
    const pad = 60;
    const vb = [view.x - pad, view.y - pad, view.w + 2 * pad, view.h + 2 * pad];
    const px = em / 1000;
    return (
      <svg
        className={className}
        viewBox={vb.join(' ')}
        width={(vb[2]! * px).toFixed(1)}
        height={(vb[3]! * px).toFixed(1)}
        style={{ display: 'block', margin: '0 auto', maxWidth: '100%', height: 'auto' }}
      >
        {flare > 0
          ? frame.tints.map((b, k) => <rect key={`t${k}`} x={b.x} y={b.y} width={b.w} height={b.h} rx={80} fill={TINT(flare * 0.22)} />)
          : null}
        {frame.rules.map((r) => (
          <rect
            key={r.key}
            x={r.x}
            y={r.y}
            width={r.w}
            height={r.h}
            fill={ROLE_FILL[r.role]}
            opacity={r.opacity < 1 ? r.opacity : undefined}
          />
        ))}
        {frame.glyphs.map((g) => (
          <path
            key={g.key}
            d={g.d ?? table[g.path]?.d}
            transform={`matrix(${g.sx} 0 0 ${g.sy} ${g.x} ${g.y})`}
            fill={ROLE_FILL[g.role]}
            opacity={g.opacity < 1 ? g.opacity : undefined}
          />
        ))}
        {frame.strikes.map((s) => (
          <line
            key={s.key}
            x1={s.x1}
            x2={s.x1 + (s.x2 - s.x1) * s.progress}
            y1={s.y}
            y2={s.y}
            stroke={theme.fail}
            strokeWidth={55}
            strokeLinecap="round"
            opacity={s.opacity < 1 ? s.opacity : undefined}
          />
        ))}
      </svg>
    );
  },
);

/** The beat's equation as SVG glyphs, moving out of the last one: a pure function of the props and `t`. */
const GlyphMorphingEquation: React.FC<Omit<GlyphFrameInput, 'interpolatePath'> & { flare: number }> = ({
  before,
  after,
  morph,
  table,
  t,
  lit,
  flare,
}) => {
  // at rest the frame is the same on every frame: computed once
  const tKey = before && t < MOVE_FRAMES ? Math.max(t, -1) : MOVE_FRAMES;
  const frame = useMemo(
    () => glyphFrame({ before, after, morph, table, t: tKey, lit, interpolatePath }),
    [before, after, morph, table, tKey, lit],
  );
  return (
    <div style={{ flex: 1, minWidth: 0 }}>
      <GlyphSvg frame={frame} table={table} em={EQUATION_EM_PX} flare={flare} className="wd-eq-glyphs" />
    </div>
  );
};

/** The last equation, shown dimmed above the new one: what went is struck through in red. Null when it has no glyphs (KaTeX draws it). */
export const StillEquation: React.FC<{
  eq: NonNullable<DerivationBeat['previous']>;
  table: readonly GlyphPath[] | undefined;
  em: number;
}> = ({ eq, table, em }) => {
  const svg = eq.svg;
  const frame = useMemo(() => {
    if (!svg || !table) return null;
    const morph = equationMorph([], eq.pieces);
    const lit = eq.pieces.some((p) => p.state === 'changed');
    return glyphFrame({ before: null, after: svg, morph, table, t: MOVE_FRAMES, lit, changed: 'gone' });
  }, [eq, svg, table]);
  if (!frame || !table) return null;
  return (
    <div style={{ flex: 1, minWidth: 0 }}>
      <GlyphSvg frame={frame} table={table} em={em} flare={0} className="wd-eq-prev-glyphs" />
    </div>
  );
};

export const MorphingEquation: React.FC<{
  beat: DerivationBeat;
  /** the scene's glyph table (absent in older props) */
  table: readonly GlyphPath[] | undefined;
  /** frames since the equation's motion starts (negative: before it) */
  t: number;
  /** the tint behind lit leaves, 0..1 */
  flare: number;
}> = ({ beat, table, t, flare }) => {
  const eq = beat.equation!;
  const prev = beat.previous;
  const morph = useMemo(() => equationMorph(prev?.pieces ?? [], eq.pieces), [prev, eq]);
  // a step from the last equation (the diff related them): what changed is lit, and what went struck through, even when nothing came in its place
  const lit = useMemo(() => [...eq.pieces, ...(prev?.pieces ?? [])].some((p) => p.state === 'changed'), [eq, prev]);
  if (table && eq.svg && (!prev || prev.svg))
    return <GlyphMorphingEquation before={prev?.svg ?? null} after={eq.svg} morph={morph} table={table} t={t} lit={lit} flare={flare} />;
  return <KatexMorphingEquation beat={beat} t={t} fontSize={EQUATION_EM_PX} flare={flare} />;
};

const AMBER = theme.warn;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const ease = Easing.inOut(Easing.cubic);

interface Leaves {
  /** every element KaTeX made for a leaf, by leaf index */
  all: Map<number, HTMLElement[]>;
  /** the outermost of them (what moves and fades) */
  outer: Map<number, HTMLElement[]>;
}

/** The elements of each leaf, found by their marker colour (read once, before they are restyled). */
function findLeaves(root: HTMLElement): Leaves {
  const all = new Map<number, HTMLElement[]>();
  const outer = new Map<number, HTMLElement[]>();
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('.katex [style]'))) {
    const leaf = leafOfColor(el.style.color);
    if (leaf === null) continue;
    (all.get(leaf) ?? all.set(leaf, []).get(leaf)!).push(el);
    const parent = el.parentElement;
    // an element KaTeX itself offsets (a centred delimiter's `top`) is left in place: it fades, never moves
    if ((!parent || leafOfColor(parent.style.color) !== leaf) && el.style.left === '' && el.style.top === '')
      (outer.get(leaf) ?? outer.set(leaf, []).get(leaf)!).push(el);
  }
  return { all, outer };
}

/** Left and top of a leaf (its outermost elements' union), in the box's unscaled pixels. */
function leafOrigin(els: HTMLElement[] | undefined, box: DOMRect, scale: number): [number, number] | null {
  if (!els || els.length === 0) return null;
  let left = Infinity;
  let top = Infinity;
  for (const el of els) {
    const r = el.getBoundingClientRect();
    left = Math.min(left, r.left);
    top = Math.min(top, r.top);
  }
  return [(left - box.left) / scale, (top - box.top) / scale];
}

/**
 * Offsets a leaf from its place. KaTeX's glyph spans are inline boxes, which a transform does not
 * move; relative positioning does, without changing the layout around them.
 */
function place(el: HTMLElement, dx: number, dy: number): void {
  if (Math.abs(dx) < 0.05 && Math.abs(dy) < 0.05) {
    el.style.position = '';
    el.style.left = '';
    el.style.top = '';
    return;
  }
  el.style.position = 'relative';
  el.style.left = `${dx.toFixed(2)}px`;
  el.style.top = `${dy.toFixed(2)}px`;
}

/** Waits (delayRender) until the document's fonts are loaded, then renders again: a leaf measured in a fallback font would move to the wrong place. */
function useFontsLoaded(): boolean {
  const ready = typeof document === 'undefined' || !('fonts' in document) || document.fonts.status === 'loaded';
  const [, setLoaded] = useState(ready);
  useLayoutEffect(() => {
    if (ready) return;
    const handle = delayRender('Equation morph: waiting for the maths fonts');
    let live = true;
    void document.fonts.ready.then(() => {
      if (live) setLoaded(true);
      continueRender(handle);
    });
    return () => {
      live = false;
      continueRender(handle);
    };
  }, [ready]);
  return ready;
}

/** The KaTeX fallback: both equations typeset in the frame, their leaves measured and moved (for equations MathJax could not typeset). */
const KatexMorphingEquation: React.FC<{
  beat: DerivationBeat;
  /** frames since the equation's motion starts (negative: before it) */
  t: number;
  fontSize: number;
  /** the tint behind lit leaves, 0..1 */
  flare: number;
}> = ({ beat, t, fontSize, flare }) => {
  const eq = beat.equation!;
  const prev = beat.previous;
  const morph: EquationMorph = useMemo(() => equationMorph(prev?.pieces ?? [], eq.pieces), [prev, eq]);
  const texAfter = useMemo(() => morphTex(morph.after), [morph]);
  const texBefore = useMemo(() => (prev ? morphTex(morph.before) : null), [prev, morph]);
  // lit: a step from the last equation (the diff found it related and marked what changed)
  const lit = useMemo(() => eq.pieces.some((p) => p.state === 'changed'), [eq]);
  const fontsLoaded = useFontsLoaded();
  const boxRef = useRef<HTMLDivElement>(null);
  const afterRef = useRef<HTMLDivElement>(null);
  const beforeRef = useRef<HTMLDivElement>(null);
  const found = useRef<{ after: Leaves; before: Leaves | null; root: HTMLElement } | null>(null);
  // what the DOM shows now (a held frame writes nothing: its styles are already those of the frame)
  const applied = useRef<string | null>(null);

  useLayoutEffect(() => {
    const box = boxRef.current;
    const afterRoot = afterRef.current;
    if (!box || !afterRoot) return;
    if (!found.current || found.current.root !== afterRoot.firstElementChild) {
      const after = findLeaves(afterRoot);
      const before = beforeRef.current ? findLeaves(beforeRef.current) : null;
      // the marker colours become the colours shown, once
      for (const [i, els] of after.all)
        for (const el of els) el.style.color = lit && morph.after[i]?.state === 'changed' ? AMBER : theme.text;
      if (before)
        for (const [i, els] of before.all) {
          const removed = morph.before[i]?.pair === null;
          for (const el of els) el.style.color = removed ? (lit ? theme.fail : theme.muted) : 'transparent';
          if (removed && lit) for (const el of before.outer.get(i) ?? []) el.style.textDecoration = 'line-through';
        }
      found.current = { after, before, root: afterRoot.firstElementChild as HTMLElement };
    }
    const { after, before } = found.current;
    const morphing = prev !== null && t < MOVE_FRAMES;
    const state = `${morphing ? t : 'rest'}|${flare}|${fontsLoaded}|${box.offsetWidth}`;
    if (applied.current === state) return;
    applied.current = state;
    const p = ease(clamp01(t / MOVE_FRAMES));
    // the carried leaves: measured at their own places (offsets cleared), then set back towards the last equation's
    const moves: Array<[HTMLElement[], number, number]> = [];
    if (morphing && before && fontsLoaded) {
      for (const [j, l] of morph.after.entries()) if (l.pair !== null) for (const el of after.outer.get(j) ?? []) place(el, 0, 0);
      const rect = box.getBoundingClientRect();
      const scale = box.offsetWidth > 0 ? rect.width / box.offsetWidth : 1;
      for (const [j, l] of morph.after.entries()) {
        if (l.pair === null) continue;
        const to = leafOrigin(after.outer.get(j), rect, scale);
        const from = leafOrigin(before.outer.get(l.pair), rect, scale);
        if (to && from) moves.push([after.outer.get(j)!, (from[0] - to[0]) * (1 - p), (from[1] - to[1]) * (1 - p)]);
      }
    }
    for (const [j, l] of morph.after.entries()) {
      const els = after.outer.get(j);
      if (!els) continue;
      if (l.pair === null) {
        // new: fades in once the carried terms are under way
        const o = prev ? clamp01((t - MOVE_FRAMES * 0.35) / (MOVE_FRAMES * 0.65)) : 1;
        for (const el of els) {
          el.style.opacity = o >= 1 ? '' : o.toFixed(3);
          el.style.backgroundColor = lit && l.state === 'changed' && flare > 0 ? TINT(flare * 0.22) : '';
        }
      } else if (!morphing) for (const el of els) place(el, 0, 0);
    }
    for (const [els, dx, dy] of moves) for (const el of els) place(el, dx, dy);
    if (before) {
      // removed: struck through (when it is a step), fading out over the first half of the motion
      const o = clamp01(1 - t / (MOVE_FRAMES * 0.6));
      for (const [i, l] of morph.before.entries())
        if (l.pair === null) for (const el of before.outer.get(i) ?? []) el.style.opacity = o.toFixed(3);
    }
  });

  // what is not a leaf (a bracket, a fraction's bar around moving terms) fades in with the new leaves
  const restAlpha = prev ? clamp01((t - MOVE_FRAMES * 0.35) / (MOVE_FRAMES * 0.65)) : 1;
  // and what is not a leaf of the last equation (its brackets) fades out with its removed leaves
  const goneAlpha = clamp01(1 - t / (MOVE_FRAMES * 0.6));
  const style = { fontSize, lineHeight: 1.3 };
  return (
    <div ref={boxRef} style={{ flex: 1, minWidth: 0, display: 'grid', overflow: 'hidden' }}>
      {texBefore !== null ? (
        <div
          ref={beforeRef}
          className="wd-eq-morph-before"
          style={{
            gridArea: '1 / 1',
            color: `rgba(141,150,168,${goneAlpha.toFixed(3)})`,
            visibility: t < MOVE_FRAMES ? 'visible' : 'hidden',
          }}
        >
          <MarkdownView source={`$$${texBefore}$$`} style={style} />
        </div>
      ) : null}
      <div ref={afterRef} className="wd-eq-morph-after" style={{ gridArea: '1 / 1', color: `rgba(232,235,241,${restAlpha.toFixed(3)})` }}>
        <MarkdownView source={`$$${texAfter}$$`} style={style} />
      </div>
    </div>
  );
};
