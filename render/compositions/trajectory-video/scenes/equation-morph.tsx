import React, { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { continueRender, delayRender, Easing } from 'remotion';
import { equationMorph, leafOfColor, morphTex, type EquationMorph } from '../../../../lib/video/equation-morph';
import type { DerivationBeat } from '../schema';
import { theme } from '../theme';
import { MarkdownView } from './common';

/**
 * A display equation that grows out of the last one (lib/video/equation-morph.ts): the leaves
 * both share start where they stood in the last equation and move to their places in the new
 * one, the new leaves fade in (lit amber when the diff says they changed), the removed ones are
 * struck through and fade out. Both equations are typeset by the one renderer at the same size,
 * overlaid in one box: the last one (only its removed leaves visible) under the new one.
 *
 * Pure in the frame: where each leaf is typeset is measured in the same frame (useLayoutEffect,
 * before the frame is painted or captured) and the offsets are set from the frame alone, all of
 * them on every frame of the motion; no state is carried between frames. The typeset HTML is the
 * same on every frame (memoised), only a few inline styles change while the terms move.
 */

export const MOVE_FRAMES = 24;
const AMBER = '#ffc857';

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

export const MorphingEquation: React.FC<{
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
          el.style.backgroundColor = lit && l.state === 'changed' && flare > 0 ? `rgba(255,200,87,${(flare * 0.22).toFixed(3)})` : '';
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
