import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { diffEquations, unchangedPieces } from './equation-diff';
import { interpolatePath } from '@remotion/paths';
import {
  equationLeaves,
  equationMorph,
  glyphCanvas,
  glyphFrame,
  leafColor,
  leafOfColor,
  morphTex,
  MOVE_FRAMES,
  slotPairs,
  type GlyphFrame,
} from './equation-morph';
import { GlyphTable, typesetGlyphs } from './tex-svg';

const texOf = (leaves: { tex: string }[]) => leaves.map((l) => l.tex);

describe('equation morph: leaves keyed by sub-expression', () => {
  it('carries the terms shared by two lines, in order, and leaves the rest new or removed', () => {
    const d = diffEquations('m\\ddot x + b\\dot x + kx = 0', 'm\\ddot x = -b\\dot x - kx');
    const m = equationMorph(d.before, d.after);
    const after = m.after;
    // m \ddot x, b \dot x and k x are on both lines: carried; '=' too
    const carried = after.filter((l) => l.pair !== null).map((l) => l.tex);
    expect(carried).toEqual(expect.arrayContaining(['m', '\\ddot x', '=', 'b', '\\dot x', 'k', 'x']));
    // the '0' went, nothing on the next line pairs with it
    const removed = m.before.filter((l) => l.keyed && l.pair === null).map((l) => l.tex);
    expect(removed).toContain('0');
    // pairs point at each other and at the same key
    for (const [j, l] of after.entries())
      if (l.pair !== null) {
        expect(m.before[l.pair]!.pair).toBe(j);
        expect(m.before[l.pair]!.tex.replace(/\s/g, '')).toBe(l.tex.replace(/\s/g, ''));
      }
    expect(m.carried).toBe(carried.length);
  });

  it('moves shared sub-expressions even between equations the diff calls unrelated (the hoop: L, then its equation of motion)', () => {
    const l = '\\mathcal L = \\tfrac12 mR^2\\left(\\dot\\theta^2 + \\Omega^2\\sin^2\\theta\\right) + mgR\\cos\\theta';
    const eom = '\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right) \\equiv f(\\theta)';
    const m = equationMorph(unchangedPieces(l), unchangedPieces(eom));
    expect(m.after.filter((x) => x.pair !== null).map((x) => x.tex)).toEqual(expect.arrayContaining(['\\Omega^2', '\\cos', '\\theta']));
    expect(m.carried).toBeGreaterThan(2);
  });

  it('cuts a term into atoms that rebuild it, never wraps a delimiter or a detached script', () => {
    const leaves = equationLeaves(unchangedPieces('\\left(a+b\\right)^2 = \\frac{a}{b}'));
    expect(texOf(leaves).join('').replace(/\s/g, '')).toBe('\\left(a+b\\right)^2=\\frac{a}{b}');
    expect(leaves.find((l) => l.tex.startsWith('\\left'))!.keyed).toBe(false);
    expect(leaves.find((l) => l.tex.startsWith('^'))?.keyed ?? false).toBe(false);
  });

  it('typesets the marked equation exactly as the plain one (KaTeX keeps the spacing across \\textcolor), every leaf findable by its colour', () => {
    const tex = '\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right)';
    const leaves = equationMorph([], unchangedPieces(tex)).after;
    const marked = katex.renderToString(morphTex(leaves), { output: 'html', displayMode: true });
    const plain = katex.renderToString(tex, { output: 'html', displayMode: true });
    // the colour aside, the same boxes and spacing (a coloured operator name's letters come in spans of their own: the same glyphs)
    const layout = (html: string) =>
      html
        .replace(/color:#[0-9a-f]{6};?/g, '')
        .replace(/ style=""/g, '')
        .replace(/<span>(.)<\/span>/gu, '$1');
    expect(layout(marked)).toBe(layout(plain));
    const found = new Set([...marked.matchAll(/color:(#[0-9a-f]{6})/g)].map((m) => leafOfColor(m[1]!)));
    leaves.forEach((l, i) => {
      if (l.keyed) expect(found.has(i)).toBe(true);
    });
  });

  it('encodes a leaf index in a colour and reads it back from CSS', () => {
    expect(leafColor(0)).toBe('#fd0001');
    expect(leafOfColor('rgb(253, 0, 1)')).toBe(0);
    expect(leafOfColor(leafColor(300))).toBe(300);
    expect(leafOfColor('rgb(254, 0, 1)')).toBeNull();
    expect(leafOfColor('#e8ebf1')).toBeNull();
  });
});

describe('equation morph: frames of SVG glyphs (glyphFrame)', () => {
  // the hoop: its equation of motion, then linearised about the bottom (two lines the diff relates)
  const last = '\\ddot\\theta = \\Omega^2\\sin\\theta\\cos\\theta - \\frac gR\\sin\\theta';
  const next = '\\ddot\\theta = -\\left(\\frac gR - \\Omega^2\\right)\\theta';
  const setup = () => {
    const d = diffEquations(last, next);
    const morph = equationMorph(d.before, d.after);
    const table = new GlyphTable();
    const before = typesetGlyphs(morphTex(morph.before), table)!;
    const after = typesetGlyphs(morphTex(morph.after), table)!;
    return { morph, table: table.paths, before, after };
  };
  const at = (t: number, extra: Partial<Parameters<typeof glyphFrame>[0]> = {}) => {
    const s = setup();
    return {
      ...s,
      frame: glyphFrame({ before: s.before, after: s.after, morph: s.morph, table: s.table, t, lit: true, interpolatePath, ...extra }),
    };
  };
  const seen = (f: GlyphFrame) => f.glyphs.filter((g) => g.opacity > 0).map((g) => `${g.path}@${g.x},${g.y}`);

  it('shows the last equation before the motion and at its first frame, the next one at rest at its end', () => {
    for (const t of [-5, 0]) {
      const { frame, before } = at(t);
      const dx = glyphCanvas(before, at(0).after).beforeDx;
      const want = before.glyphs.map((g) => `${g[1]}@${Math.round((g[2] + dx) * 10) / 10},${g[3]}`);
      expect(seen(frame).sort()).toEqual(want.sort());
      expect(frame.strikes.every((s) => s.progress === 0)).toBe(true);
      // nothing is lit or struck until the motion starts: the last equation reads as it was
      expect(new Set(frame.glyphs.map((g) => g.role))).toEqual(new Set(['text']));
    }
    const end = at(MOVE_FRAMES);
    const dx = glyphCanvas(end.before, end.after).afterDx;
    expect(seen(end.frame).sort()).toEqual(end.after.glyphs.map((g) => `${g[1]}@${Math.round((g[2] + dx) * 10) / 10},${g[3]}`).sort());
    expect(end.frame.glyphs.every((g) => g.opacity === 1 && g.d === undefined)).toBe(true);
    expect(end.frame.strikes).toEqual([]);
  });

  it('moves a carried leaf between its two places, eased, and lights the changed ones', () => {
    const { morph, before, after, table } = setup();
    const { beforeDx, afterDx } = glyphCanvas(before, after);
    // the carried R of \frac gR (a leaf on both lines)
    const j = morph.after.findIndex((l) => l.pair !== null && l.tex.includes('\\frac'));
    const i = morph.after[j]!.pair!;
    const a = after.glyphs.findIndex((g) => g[0] === j);
    const b = before.glyphs.findIndex((g) => g[0] === i);
    const x = (t: number) => glyphFrame({ before, after, morph, table, t, lit: true }).glyphs.find((g) => g.key === `a${a}`)!.x;
    const from = before.glyphs[b]![2] + beforeDx;
    const to = after.glyphs[a]![2] + afterDx;
    expect(from).not.toBeCloseTo(to, 0);
    expect(x(0)).toBeCloseTo(from, 0);
    expect(x(MOVE_FRAMES / 2)).toBeCloseTo((from + to) / 2, 0);
    // eased: a quarter of the way in time is less than a quarter of the way in space
    expect(Math.abs(x(MOVE_FRAMES / 4) - from)).toBeLessThan(Math.abs(to - from) / 4);
    expect(x(MOVE_FRAMES)).toBeCloseTo(to, 0);
    const rest = glyphFrame({ before, after, morph, table, t: MOVE_FRAMES, lit: true });
    const changed = new Set(morph.after.flatMap((l, k) => (l.state === 'changed' ? [k] : [])));
    expect(changed.size).toBeGreaterThan(0);
    for (const g of rest.glyphs) {
      const leaf = after.glyphs[Number(g.key.slice(1))]![0];
      expect(g.role).toBe(changed.has(leaf) ? 'lit' : 'text');
    }
    expect(rest.tints.length).toBeGreaterThan(0);
  });

  it('strikes removed leaves through and fades them out; new leaves fade in', () => {
    const { morph } = setup();
    const removed = morph.before.filter((l) => l.keyed && l.pair === null);
    expect(removed.length).toBeGreaterThan(0);
    const early = at(4).frame;
    expect(early.strikes.length).toBeGreaterThan(0);
    expect(early.strikes[0]!.progress).toBeGreaterThan(0);
    expect(early.glyphs.some((g) => g.role === 'gone' && g.opacity === 1)).toBe(true);
    const late = at(MOVE_FRAMES - 4).frame;
    expect(late.glyphs.some((g) => g.role === 'gone')).toBe(false);
    const newGlyph = (f: GlyphFrame) => f.glyphs.find((g) => g.role === 'lit' && g.key.startsWith('a') && g.opacity < 1);
    expect(newGlyph(at(MOVE_FRAMES * 0.7).frame)).toBeDefined();
  });

  it('morphs a changed leaf out of the removed one in its slot, path into path', () => {
    const d = diffEquations('E = mc^2 + x', 'E = mc^3 + x');
    const morph = equationMorph(d.before, d.after);
    const swaps = slotPairs(morph);
    expect([...swaps].map(([j, i]) => [morph.after[j]!.tex, morph.before[i]!.tex])).toContainEqual([
      expect.stringContaining('3'),
      expect.stringContaining('2'),
    ]);
    const table = new GlyphTable();
    const before = typesetGlyphs(morphTex(morph.before), table)!;
    const after = typesetGlyphs(morphTex(morph.after), table)!;
    const mid = glyphFrame({ before, after, morph, table: table.paths, t: MOVE_FRAMES / 2, lit: true, interpolatePath });
    const morphing = mid.glyphs.filter((g) => g.d !== undefined);
    expect(morphing).toHaveLength(1);
    expect(morphing[0]!.d).not.toBe(table.paths[morphing[0]!.path]!.d);
    // struck through only what went with nothing in its place
    expect(mid.strikes).toEqual([]);
    // without a path morph, the old shape crossfades into the new
    const plain = glyphFrame({ before, after, morph, table: table.paths, t: MOVE_FRAMES / 2, lit: true });
    expect(plain.glyphs.filter((g) => g.d !== undefined)).toEqual([]);
    expect(plain.glyphs.filter((g) => g.opacity > 0 && g.opacity < 1)).toHaveLength(2);
  });

  it('crossfades a glyph of several outlines, which interpolatePath cannot morph', () => {
    const d = diffEquations('E = mc^2 + x', 'E = mc^i + x');
    const morph = equationMorph(d.before, d.after);
    expect(slotPairs(morph).size).toBe(1);
    const table = new GlyphTable();
    const before = typesetGlyphs(morphTex(morph.before), table)!;
    const after = typesetGlyphs(morphTex(morph.after), table)!;
    const mid = glyphFrame({ before, after, morph, table: table.paths, t: MOVE_FRAMES / 2, lit: true, interpolatePath });
    expect(mid.glyphs.filter((g) => g.d !== undefined)).toEqual([]);
    expect(mid.glyphs.filter((g) => g.opacity > 0 && g.opacity < 1)).toHaveLength(2);
  });

  it('is a pure function of its input: the same frame twice is the same', () => {
    for (const t of [-3, 0, 5, 11, 17, 23, 24, 60]) expect(JSON.stringify(at(t).frame)).toBe(JSON.stringify(at(t).frame));
  });
});
