import { describe, expect, it } from 'vitest';
import { diffEquations, unchangedPieces } from './equation-diff';
import { equationLeaves, equationMorph, morphTex } from './equation-morph';
import { equationGlyphsSchema } from './schema';
import { GlyphTable, parseTransform, typesetGlyphs, typesetGlyphsOrWhy } from './tex-svg';

/** the equation's morph leaves as MathJax typesets them */
const layoutOf = (tex: string, table = new GlyphTable()) => {
  const leaves = equationLeaves(unchangedPieces(tex));
  const svg = typesetGlyphs(morphTex(leaves), table);
  if (!svg) throw new Error(`no glyphs for ${tex}`);
  return { leaves, svg, table };
};

describe('tex-svg: display equations as SVG glyphs keyed by morph leaf', () => {
  it('maps every keyed leaf to its glyphs by its marker colour, and nothing else to a leaf', () => {
    const { leaves, svg } = layoutOf('\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right)');
    expect(equationGlyphsSchema.parse(svg)).toEqual(svg);
    const keyed = new Set(leaves.flatMap((l, i) => (l.keyed ? [i] : [])));
    const seen = new Set(svg.glyphs.map((g) => g[0]).filter((l) => l >= 0));
    // every keyed leaf drew something, and every leaf index a glyph carries is a keyed leaf
    expect(seen).toEqual(keyed);
    // \left( and \right) are no leaf: their glyphs carry -1
    expect(svg.glyphs.some((g) => g[0] === -1)).toBe(true);
    // the fraction's bar belongs to the \frac gR leaf
    const frac = leaves.findIndex((l) => l.tex.replace(/\s/g, '') === '\\fracgR');
    expect(frac).toBeGreaterThanOrEqual(0);
    expect(svg.rules.filter((r) => r[0] === frac)).toHaveLength(1);
  });

  it('places a subscript and a superscript where MathJax sets them: scaled 0.707, raised and lowered from the base', () => {
    const { leaves, svg } = layoutOf('x_1^2 = y');
    const leaf = leaves.findIndex((l) => l.tex.startsWith('x'));
    const [base, sup, sub] = svg.glyphs.filter((g) => g[0] === leaf);
    expect(base![4]).toBe(1);
    // y down: the superscript above the baseline (negative y), the subscript below it
    expect(sup![4]).toBe(0.707);
    expect(sup![3]).toBeLessThan(-300);
    expect(sub![4]).toBe(0.707);
    expect(sub![3]).toBeGreaterThan(100);
    // both start where the base ends (MathJax's italic correction aside), scripts stacked
    expect(sup![2]).toBe(sub![2]);
    expect(sup![2]).toBeGreaterThan(base![2] + 400);
    // the font is y up: every glyph is flipped
    for (const g of svg.glyphs) expect(g[5]).toBe(-g[4]);
  });

  it('deduplicates paths across equations into one table, and gives byte-identical layouts for the same TeX', () => {
    const table = new GlyphTable();
    const a = layoutOf('x + x + x = 3x', table).svg;
    const xs = a.glyphs.filter((g, _k, all) => g[1] === all[0]![1]);
    expect(xs).toHaveLength(4);
    const size = table.paths.length;
    const b = layoutOf('x + x + x = 3x', table).svg;
    expect(table.paths.length).toBe(size);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // another equation in between changes nothing: no state is kept between equations
    layoutOf('\\frac{\\partial L}{\\partial \\dot q} = \\sqrt{2}', table);
    expect(JSON.stringify(layoutOf('x + x + x = 3x', table).svg)).toBe(JSON.stringify(a));
    expect(new Set(table.paths.map((p) => p.d)).size).toBe(table.paths.length);
    // each path has its box (font units, y up)
    const plus = table.paths.find((p) => p.d.startsWith('M56 237'))!;
    expect(plus.box).toEqual([56, -82, 722, 583]);
  });

  it('keeps the marked equation as wide as the plain one: MathJax keeps the spacing of operators across \\textcolor', () => {
    for (const tex of [
      'm\\ddot x = -b\\dot x - kx',
      '\\omega = \\sqrt{\\frac gR - \\Omega^2}',
      '\\ddot\\theta = \\Omega^2\\sin\\theta\\cos\\theta - \\frac gR\\sin\\theta',
      'x(t) = x_0 e^{-\\gamma t}\\left(\\cos\\omega_d t - \\frac{\\gamma}{\\omega_d}\\sin\\omega_d t\\right)',
    ]) {
      const marked = layoutOf(tex).svg;
      const plain = typesetGlyphs(tex, new GlyphTable())!;
      expect(marked.box).toEqual(plain.box);
      expect(marked.glyphs.map((g) => g.slice(2))).toEqual(plain.glyphs.map((g) => g.slice(2)));
    }
  });

  it('types fraction bars and root vinculums as rules, and a \\boxed frame as four', () => {
    const frac = typesetGlyphs('\\frac ab', new GlyphTable())!;
    expect(frac.rules).toHaveLength(1);
    expect(frac.rules[0]![4]).toBe(60);
    const boxed = typesetGlyphs('\\boxed{x}', new GlyphTable())!;
    expect(boxed.rules).toHaveLength(4);
  });

  it('gives no layout (the KaTeX fallback) for TeX MathJax cannot typeset or SVG it does not draw, saying why', () => {
    expect(typesetGlyphsOrWhy('\\notamacro x', new GlyphTable())).toEqual({ reason: 'TeX: Undefined control sequence \\notamacro' });
    expect(typesetGlyphsOrWhy('\\frac{1}{', new GlyphTable())).toMatchObject({ reason: expect.stringMatching(/^TeX: /) });
    // a definition would outlive its equation: refused, not kept
    expect(typesetGlyphs('\\newcommand{\\x}{y} \\x', new GlyphTable())).toBeNull();
    // a character outside MathJax's fonts is a <text> in a browser font: not drawn here
    const table = new GlyphTable();
    expect(typesetGlyphsOrWhy('x + \\text{日本}', table)).toEqual({ reason: '<text>' });
    // and a refused equation leaves nothing in the scene's table
    expect(table.paths).toEqual([]);
  });

  it('typesets the diffed equations the derivation scene carries (both sides of a step)', () => {
    const d = diffEquations('m\\ddot x + b\\dot x + kx = 0', 'm\\ddot x = -b\\dot x - kx');
    const m = equationMorph(d.before, d.after);
    const table = new GlyphTable();
    const before = typesetGlyphs(morphTex(m.before), table)!;
    const after = typesetGlyphs(morphTex(m.after), table)!;
    for (const [svg, leaves] of [
      [before, m.before],
      [after, m.after],
    ] as const)
      for (const g of svg.glyphs) if (g[0] >= 0) expect(leaves[g[0]]!.keyed).toBe(true);
  });

  it('reads the transforms MathJax writes and refuses others', () => {
    expect(parseTransform('translate(462,413) scale(0.707)')).toEqual([0.707, 0, 0, 0.707, 462, 413]);
    expect(parseTransform('translate(0 -0.5)')).toEqual([1, 0, 0, 1, 0, -0.5]);
    expect(parseTransform('scale(1,-1)')).toEqual([1, 0, 0, -1, 0, 0]);
    expect(parseTransform(null)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(parseTransform('rotate(45)')).toBeNull();
  });
});
