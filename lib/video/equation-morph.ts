import { normalisePiece, termAtoms, type DiffedPiece, type PieceKind } from './equation-diff';
import type { EquationGlyphs, GlyphPath } from './schema';

/**
 * How one display equation turns into the next in a derivation scene, the way 3Blue1Brown's
 * TransformMatchingTex does it: both equations cut into leaves keyed by their TeX (the diff's
 * pieces, a term cut further into its atoms: `\frac{a}{b}`, `\sin\theta`, `R^2`, an operator),
 * leaves with the same key paired in order of appearance. A paired leaf of the next equation is
 * carried: it starts where it stood in the last one and moves to its new place; an unpaired one
 * is new (fades in, lit when the diff says it changed); an unpaired leaf of the last equation is
 * removed (struck through and fades out). Pure; the composition measures where each leaf is
 * typeset (render/compositions/trajectory-video/scenes/equation-morph.tsx).
 *
 * Each keyed leaf is typeset inside `\textcolor{#fdXXXX}{…}`, its index in the colour: KaTeX
 * keeps the spacing of binary signs and relations across \textcolor (it is a fragment, not a
 * box), so the equation is laid out exactly as without the marks, and every span KaTeX makes for
 * the leaf carries the colour the composition finds it by and then restyles.
 */

export interface MorphLeaf {
  tex: string;
  kind: PieceKind;
  /** the diff's state: `changed` leaves of the next equation are lit */
  state: 'same' | 'changed';
  /** the paired leaf's index on the other side (null: new, or removed) */
  pair: number | null;
  /** false for spacing and delimiters (`\left(`): never wrapped, they stay with the layout */
  keyed: boolean;
}

export interface EquationMorph {
  before: MorphLeaf[];
  after: MorphLeaf[];
  /** how many leaves of the next equation move from the last one */
  carried: number;
}

const squash = (tex: string) => tex.replace(/\s+/g, '');

/** A diffed equation's leaves: its pieces (their parts where the diff cut a term further), a term cut into atoms when they rebuild it exactly. */
export function equationLeaves(pieces: readonly DiffedPiece[]): Omit<MorphLeaf, 'pair'>[] {
  const out: Omit<MorphLeaf, 'pair'>[] = [];
  // a script or alignment left over from its base (`\right)^2`) must stay where it is: not wrapped
  const leaf = (tex: string, kind: PieceKind, state: 'same' | 'changed') =>
    out.push({ tex, kind, state, keyed: kind !== 'space' && squash(tex) !== '' && !/^\s*([\^_'&]|\\\\)/.test(tex) });
  const walk = (list: readonly DiffedPiece[], state?: 'same' | 'changed') => {
    for (const p of list) {
      const s = state ?? p.state;
      if (p.parts) walk(p.parts, state);
      else if (p.kind === 'term') {
        const atoms = termAtoms(p.tex);
        // atoms are slices of the term; when they do not rebuild it (odd TeX), the term stays one leaf
        if (atoms.length > 1 && squash(atoms.map((a) => a.tex).join('')) === squash(p.tex)) for (const a of atoms) leaf(a.tex, a.kind, s);
        else leaf(p.tex, p.kind, s);
      } else leaf(p.tex, p.kind, s);
    }
  };
  walk(pieces);
  return out;
}

/** Pairs the leaves of two equations by key (kind and normalised TeX), the n-th occurrence of a key with the n-th. */
export function equationMorph(before: readonly DiffedPiece[], after: readonly DiffedPiece[]): EquationMorph {
  const a: MorphLeaf[] = equationLeaves(before).map((l) => ({ ...l, pair: null }));
  const b: MorphLeaf[] = equationLeaves(after).map((l) => ({ ...l, pair: null }));
  const key = (l: MorphLeaf) => `${l.kind}:${normalisePiece(l.tex)}`;
  const waiting = new Map<string, number[]>();
  a.forEach((l, i) => {
    if (!l.keyed) return;
    const list = waiting.get(key(l));
    if (list) list.push(i);
    else waiting.set(key(l), [i]);
  });
  let carried = 0;
  b.forEach((l, j) => {
    if (!l.keyed) return;
    const i = waiting.get(key(l))?.shift();
    if (i === undefined) return;
    l.pair = i;
    a[i]!.pair = j;
    carried++;
  });
  return { before: a, after: b, carried };
}

/** The first marker colour's red and green bytes: `#fd` + a 16-bit index (0xfd0000 + i + 1). */
const MARKER_RED = 0xfd;

/** `#fdXXXX` for leaf i. */
export function leafColor(i: number): string {
  return `#${(MARKER_RED * 0x10000 + i + 1).toString(16).padStart(6, '0')}`;
}

/** The leaf index a computed or inline CSS colour (`rgb(253, 0, 3)`, `#fd0003`) marks, null for any other colour. */
export function leafOfColor(color: string): number | null {
  let r: number;
  let v: number;
  const rgb = /^rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)/.exec(color);
  if (rgb) {
    r = Number(rgb[1]);
    v = Number(rgb[2]) * 256 + Number(rgb[3]);
  } else {
    const hex = /^#([0-9a-f]{6})$/i.exec(color);
    if (!hex) return null;
    const n = parseInt(hex[1]!, 16);
    r = n >> 16;
    v = n & 0xffff;
  }
  return r === MARKER_RED && v > 0 ? v - 1 : null;
}

/** The equation's TeX with each keyed leaf in its marker colour (at most 65,535 leaves; past that they are left plain). */
export function morphTex(leaves: readonly Pick<MorphLeaf, 'tex' | 'keyed'>[]): string {
  return leaves.map((l, i) => (l.keyed && i < 0xffff ? `\\textcolor{${leafColor(i)}}{${l.tex}}` : l.tex)).join(' ');
}

/**
 * Which changed leaf of the next equation takes the place of which removed leaf of the last one:
 * the keyed leaves that pair with nothing, between the same two carried leaves on both sides (the
 * same slot of the diff, `x^2` where `x^3` was), k-th with k-th when both sides have as many and
 * of the same kinds. Such a leaf morphs out of the one it replaces instead of fading in beside it.
 * Returns next-equation leaf -> last-equation leaf.
 */
export function slotPairs(m: EquationMorph): Map<number, number> {
  const out = new Map<number, number>();
  const open = (l: MorphLeaf) => l.keyed && l.pair === null;
  let lastBefore = -1;
  let run: number[] = [];
  const close = (nextBefore: number) => {
    if (run.length > 0 && nextBefore > lastBefore) {
      const gap: number[] = [];
      for (let i = lastBefore + 1; i < nextBefore; i++) if (open(m.before[i]!)) gap.push(i);
      if (gap.length === run.length && run.every((j, k) => m.after[j]!.state === 'changed' && m.after[j]!.kind === m.before[gap[k]!]!.kind))
        run.forEach((j, k) => out.set(j, gap[k]!));
    }
    run = [];
    lastBefore = nextBefore;
  };
  m.after.forEach((l, j) => {
    if (l.pair !== null) close(l.pair);
    else if (open(l)) run.push(j);
  });
  close(m.before.length);
  return out;
}

/** The motion's length in frames: carried glyphs move, removed ones are struck and fade, new ones fade in. */
export const MOVE_FRAMES = 24;

/** How a glyph is coloured: the equation's text, lit (changed), removed in a step (struck), removed otherwise (dimmed). */
export type GlyphRole = 'text' | 'lit' | 'gone' | 'faded';

/** One glyph to draw: a path of the table (or a morph between two, `d`) at x, y, scaled. */
export interface GlyphMark {
  key: string;
  path: number;
  /** the path mid-morph, when it changes shape (else the table's) */
  d?: string;
  x: number;
  y: number;
  sx: number;
  sy: number;
  role: GlyphRole;
  opacity: number;
}
export interface RuleMark {
  key: string;
  x: number;
  y: number;
  w: number;
  h: number;
  role: GlyphRole;
  opacity: number;
}
/** A strike through a removed leaf, drawn left to right (`progress`), fading with it. */
export interface StrikeMark {
  key: string;
  x1: number;
  x2: number;
  y: number;
  progress: number;
  opacity: number;
}
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** One frame of an equation: the canvas (MathJax units, y down, baseline 0) and what is drawn on it. */
export interface GlyphFrame {
  view: Box;
  glyphs: GlyphMark[];
  rules: RuleMark[];
  strikes: StrikeMark[];
  /** the lit leaves' boxes, where the flare tints */
  tints: Box[];
}

type GlyphTuple = EquationGlyphs['glyphs'][number];
type RuleTuple = EquationGlyphs['rules'][number];

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
/** Remotion's Easing.inOut(Easing.cubic), here without React */
const easeInOutCubic = (v: number) => (v < 0.5 ? 4 * v * v * v : 1 - (-2 * v + 2) ** 3 / 2);
const lerp = (a: number, b: number, p: number) => a + (b - a) * p;
/** a tenth of a unit: the frame's numbers print short and the same every time */
const r1 = (v: number) => Math.round(v * 10) / 10 + 0;
const r3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/**
 * A glyph's path mid-morph, null where it cannot be had: interpolatePath (`@remotion/paths` 4)
 * morphs one outline into one outline and throws on paths of several (`=`, `i`, `\Omega`), so those
 * crossfade instead.
 */
function morphPath(interpolate: NonNullable<GlyphFrameInput['interpolatePath']>, p: number, from: string, to: string): string | null {
  const outlines = (d: string) => d.match(/[Mm]/g)?.length ?? 0;
  if (outlines(from) !== 1 || outlines(to) !== 1) return null;
  try {
    return interpolate(p, from, to);
  } catch {
    return null;
  }
}

/** Where both equations sit on one canvas: each centred, on one baseline. */
export function glyphCanvas(before: EquationGlyphs | null, after: EquationGlyphs): { view: Box; beforeDx: number; afterDx: number } {
  const [, at, aw, ah] = after.box;
  const w = Math.max(aw, before ? before.box[2] : 0);
  const top = Math.min(at, before ? before.box[1] : at);
  const bottom = Math.max(at + ah, before ? before.box[1] + before.box[3] : at + ah);
  return {
    view: { x: 0, y: r1(top), w: r1(w), h: r1(bottom - top) },
    afterDx: (w - aw) / 2 - after.box[0],
    beforeDx: before ? (w - before.box[2]) / 2 - before.box[0] : 0,
  };
}

/** The box of some glyphs and rules (table boxes are in font units, y up; scales flip them). */
function boxOf(glyphs: readonly GlyphTuple[], rules: readonly RuleTuple[], table: readonly GlyphPath[], dx: number): Box | null {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const [, p, x, y, sx, sy] of glyphs) {
    const b = table[p]?.box;
    if (!b) continue;
    for (const gx of [x + sx * b[0], x + sx * b[2]]) [x1, x2] = [Math.min(x1, gx + dx), Math.max(x2, gx + dx)];
    for (const gy of [y + sy * b[1], y + sy * b[3]]) [y1, y2] = [Math.min(y1, gy), Math.max(y2, gy)];
  }
  for (const [, x, y, w, h] of rules) {
    [x1, x2] = [Math.min(x1, x + dx), Math.max(x2, x + w + dx)];
    [y1, y2] = [Math.min(y1, y), Math.max(y2, y + h)];
  }
  return x1 <= x2 ? { x: x1, y: y1, w: x2 - x1, h: y2 - y1 } : null;
}

function byLeaf<T extends readonly [number, ...unknown[]]>(list: readonly T[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  list.forEach((g, k) => (out.get(g[0]) ?? out.set(g[0], []).get(g[0])!).push(k));
  return out;
}

export interface GlyphFrameInput {
  /** the last equation's layout (null: the first equation, nothing moves) */
  before: EquationGlyphs | null;
  after: EquationGlyphs;
  morph: EquationMorph;
  table: readonly GlyphPath[];
  /** frames since the motion starts (negative: before it, the last equation as it was) */
  t: number;
  /** a step from the last equation: changed leaves lit, removed ones struck through */
  lit: boolean;
  /** morphs a glyph's path into another's (`@remotion/paths` interpolatePath); without it a changed shape crossfades */
  interpolatePath?: (p: number, from: string, to: string) => string;
  /** at rest, what a changed leaf is: lit (the new equation), or gone and struck through (the last one, shown above) */
  changed?: 'lit' | 'gone';
}

/**
 * One frame of an equation growing out of the last one, a pure function of the layouts and the
 * frame: carried leaves' glyphs move from their old places to their new ones (eased; glyph k of
 * the leaf to glyph k when both have as many, else the leaf's box to its new box, crossfading);
 * a changed leaf in a removed leaf's slot (slotPairs) morphs out of it, path into path where the
 * glyph counts match; new leaves fade in (lit when changed); removed leaves are struck through
 * and fade out. Glyphs that are no leaf (brackets, detached scripts) move to the n-th glyph of
 * the same shape, or fade. From `t >= MOVE_FRAMES` the next equation at rest.
 */
export function glyphFrame(input: GlyphFrameInput): GlyphFrame {
  const { before, after, morph, table, lit } = input;
  const { view, beforeDx, afterDx } = glyphCanvas(before, after);
  const out: GlyphFrame = { view, glyphs: [], rules: [], strikes: [], tints: [] };
  const moving = before !== null && input.t < MOVE_FRAMES;
  const p = easeInOutCubic(clamp01(input.t / MOVE_FRAMES));
  const fadeIn = moving ? clamp01((input.t - MOVE_FRAMES * 0.35) / (MOVE_FRAMES * 0.65)) : 1;
  const fadeOut = clamp01(1 - (input.t - MOVE_FRAMES * 0.25) / (MOVE_FRAMES * 0.45));
  const strike = clamp01(input.t / (MOVE_FRAMES * 0.3));
  const changedRole: GlyphRole = input.changed ?? 'lit';
  // until the motion starts the last equation reads as it was: plain
  const started = !moving || input.t > 0;
  const marking = lit && started;
  const fading: GlyphRole = started ? 'faded' : 'text';
  const roleOf = (j: number): GlyphRole => (marking && morph.after[j]?.state === 'changed' ? changedRole : 'text');

  const glyph = (key: string, g: GlyphTuple, dx: number, role: GlyphRole, opacity: number) => {
    if (opacity <= 0) return;
    out.glyphs.push({ key, path: g[1], x: r1(g[2] + dx), y: r1(g[3]), sx: g[4], sy: g[5], role, opacity: r3(opacity) });
  };
  const rule = (key: string, r: RuleTuple, dx: number, role: GlyphRole, opacity: number) => {
    if (opacity <= 0) return;
    out.rules.push({ key, x: r1(r[1] + dx), y: r1(r[2]), w: r1(r[3]), h: r1(r[4]), role, opacity: r3(opacity) });
  };
  const aGlyphs = byLeaf(after.glyphs);
  const aRules = byLeaf(after.rules);
  const tint = (j: number) => {
    const b = boxOf(
      (aGlyphs.get(j) ?? []).map((k) => after.glyphs[k]!),
      (aRules.get(j) ?? []).map((k) => after.rules[k]!),
      table,
      afterDx,
    );
    if (b) out.tints.push({ x: r1(b.x - 40), y: r1(b.y - 40), w: r1(b.w + 80), h: r1(b.h + 80) });
  };

  if (!moving || !before) {
    after.glyphs.forEach((g, k) => glyph(`a${k}`, g, afterDx, g[0] >= 0 ? roleOf(g[0]) : 'text', 1));
    after.rules.forEach((r, k) => rule(`ar${k}`, r, afterDx, r[0] >= 0 ? roleOf(r[0]) : 'text', 1));
    morph.after.forEach((l, j) => {
      if (!lit || l.state !== 'changed') return;
      if (changedRole === 'lit') return tint(j);
      const b = boxOf(
        (aGlyphs.get(j) ?? []).map((k) => after.glyphs[k]!),
        (aRules.get(j) ?? []).map((k) => after.rules[k]!),
        table,
        afterDx,
      );
      if (b) out.strikes.push({ key: `s${j}`, x1: r1(b.x - 30), x2: r1(b.x + b.w + 30), y: r1(b.y + b.h / 2), progress: 1, opacity: 1 });
    });
    return out;
  }

  const bGlyphs = byLeaf(before.glyphs);
  const bRules = byLeaf(before.rules);
  const swaps = lit ? slotPairs(morph) : new Map<number, number>();
  const swapped = new Set(swaps.values());

  /** before's glyphs/rules -> after's: one to one when they match, else box to box, crossfading */
  const carry = (j: number, i: number, role: GlyphRole) => {
    const ag = aGlyphs.get(j) ?? [];
    const bg = bGlyphs.get(i) ?? [];
    const ar = aRules.get(j) ?? [];
    const br = bRules.get(i) ?? [];
    if (ag.length === bg.length && ar.length === br.length) {
      ag.forEach((ak, n) => {
        const a = after.glyphs[ak]!;
        const b = before.glyphs[bg[n]!]!;
        const mark: GlyphMark = {
          key: `a${ak}`,
          path: a[1],
          x: r1(lerp(b[2] + beforeDx, a[2] + afterDx, p)),
          y: r1(lerp(b[3], a[3], p)),
          sx: r3(lerp(b[4], a[4], p)),
          sy: r3(lerp(b[5], a[5], p)),
          role,
          opacity: 1,
        };
        if (a[1] !== b[1] && p < 1) {
          const from = table[b[1]]?.d;
          const to = table[a[1]]?.d;
          const morphed = input.interpolatePath && from && to && p > 0 ? morphPath(input.interpolatePath, p, from, to) : null;
          if (morphed !== null) mark.d = morphed;
          else if (p === 0) mark.path = b[1];
          else {
            // no morph: the old shape fades out where the new one fades in
            out.glyphs.push({ ...mark, key: `b${bg[n]}`, path: b[1], opacity: r3(1 - p) });
            mark.opacity = r3(p);
          }
        }
        if (mark.opacity > 0) out.glyphs.push(mark);
      });
      ar.forEach((ak, n) => {
        const a = after.rules[ak]!;
        const b = before.rules[br[n]!]!;
        out.rules.push({
          key: `ar${ak}`,
          x: r1(lerp(b[1] + beforeDx, a[1] + afterDx, p)),
          y: r1(lerp(b[2], a[2], p)),
          w: r1(lerp(b[3], a[3], p)),
          h: r1(lerp(b[4], a[4], p)),
          role,
          opacity: 1,
        });
      });
      return;
    }
    // box to box: each side drawn in the box the motion has reached, the old fading into the new
    const boxA = boxOf(
      ag.map((k) => after.glyphs[k]!),
      ar.map((k) => after.rules[k]!),
      table,
      afterDx,
    );
    const boxB = boxOf(
      bg.map((k) => before.glyphs[k]!),
      br.map((k) => before.rules[k]!),
      table,
      beforeDx,
    );
    if (!boxA || !boxB) return;
    const at: Box = { x: lerp(boxB.x, boxA.x, p), y: lerp(boxB.y, boxA.y, p), w: lerp(boxB.w, boxA.w, p), h: lerp(boxB.h, boxA.h, p) };
    const place = (from: Box, dx: number, g: GlyphTuple): GlyphTuple => {
      const s = from.h > 0 ? at.h / from.h : 1;
      return [g[0], g[1], at.x + (g[2] + dx - from.x) * s - dx, at.y + (g[3] - from.y) * s, g[4] * s, g[5] * s];
    };
    const placeRule = (from: Box, dx: number, r: RuleTuple): RuleTuple => {
      const s = from.h > 0 ? at.h / from.h : 1;
      return [r[0], at.x + (r[1] + dx - from.x) * s - dx, at.y + (r[2] - from.y) * s, r[3] * s, r[4] * s];
    };
    for (const k of bg) glyph(`b${k}`, place(boxB, beforeDx, before.glyphs[k]!), beforeDx, role, 1 - p);
    for (const k of br) rule(`br${k}`, placeRule(boxB, beforeDx, before.rules[k]!), beforeDx, role, 1 - p);
    for (const k of ag) glyph(`a${k}`, place(boxA, afterDx, after.glyphs[k]!), afterDx, role, p);
    for (const k of ar) rule(`ar${k}`, placeRule(boxA, afterDx, after.rules[k]!), afterDx, role, p);
  };

  morph.after.forEach((l, j) => {
    const from = l.pair ?? swaps.get(j);
    if (from !== undefined) carry(j, from, roleOf(j));
    else {
      for (const k of aGlyphs.get(j) ?? []) glyph(`a${k}`, after.glyphs[k]!, afterDx, roleOf(j), fadeIn);
      for (const k of aRules.get(j) ?? []) rule(`ar${k}`, after.rules[k]!, afterDx, roleOf(j), fadeIn);
    }
    if (lit && l.state === 'changed') tint(j);
  });
  morph.before.forEach((l, i) => {
    if (l.pair !== null || swapped.has(i)) return;
    const role: GlyphRole = marking ? 'gone' : fading;
    const gs = bGlyphs.get(i) ?? [];
    const rs = bRules.get(i) ?? [];
    for (const k of gs) glyph(`b${k}`, before.glyphs[k]!, beforeDx, role, fadeOut);
    for (const k of rs) rule(`br${k}`, before.rules[k]!, beforeDx, role, fadeOut);
    if (lit && fadeOut > 0 && strike > 0) {
      const b = boxOf(
        gs.map((k) => before.glyphs[k]!),
        rs.map((k) => before.rules[k]!),
        table,
        beforeDx,
      );
      if (b)
        out.strikes.push({
          key: `s${i}`,
          x1: r1(b.x - 30),
          x2: r1(b.x + b.w + 30),
          y: r1(b.y + b.h / 2),
          progress: r3(strike),
          opacity: r3(fadeOut),
        });
    }
  });
  // what is no leaf: the n-th glyph of a shape moves to the n-th of the same shape, the rest fade
  const waiting = new Map<number, number[]>();
  for (const k of bGlyphs.get(-1) ?? []) {
    const g = before.glyphs[k]!;
    (waiting.get(g[1]) ?? waiting.set(g[1], []).get(g[1])!).push(k);
  }
  for (const k of aGlyphs.get(-1) ?? []) {
    const a = after.glyphs[k]!;
    const bk = waiting.get(a[1])?.shift();
    if (bk === undefined) {
      glyph(`a${k}`, a, afterDx, 'text', fadeIn);
      continue;
    }
    const b = before.glyphs[bk]!;
    const moved: GlyphTuple = [
      -1,
      a[1],
      lerp(b[2] + beforeDx, a[2] + afterDx, p) - afterDx,
      lerp(b[3], a[3], p),
      lerp(b[4], a[4], p),
      lerp(b[5], a[5], p),
    ];
    glyph(`a${k}`, moved, afterDx, 'text', 1);
  }
  for (const list of waiting.values()) for (const k of list) glyph(`b${k}`, before.glyphs[k]!, beforeDx, fading, fadeOut);
  // rules that are no leaf (a bracket's fraction around moving terms): the n-th to the n-th
  const ar = aRules.get(-1) ?? [];
  const br = bRules.get(-1) ?? [];
  ar.forEach((ak, n) => {
    const a = after.rules[ak]!;
    const bk = br[n];
    if (bk === undefined) return rule(`ar${ak}`, a, afterDx, 'text', fadeIn);
    const b = before.rules[bk]!;
    rule(
      `ar${ak}`,
      [-1, lerp(b[1] + beforeDx, a[1] + afterDx, p) - afterDx, lerp(b[2], a[2], p), lerp(b[3], a[3], p), lerp(b[4], a[4], p)],
      afterDx,
      'text',
      1,
    );
  });
  for (const bk of br.slice(ar.length)) rule(`br${bk}`, before.rules[bk]!, beforeDx, fading, fadeOut);
  return out;
}
