import { normalisePiece, termAtoms, type DiffedPiece, type PieceKind } from './equation-diff';

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
export function morphTex(leaves: readonly MorphLeaf[]): string {
  return leaves.map((l, i) => (l.keyed && i < 0xffff ? `\\textcolor{${leafColor(i)}}{${l.tex}}` : l.tex)).join(' ');
}
