import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { diffEquations, unchangedPieces } from './equation-diff';
import { equationLeaves, equationMorph, leafColor, leafOfColor, morphTex } from './equation-morph';

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
