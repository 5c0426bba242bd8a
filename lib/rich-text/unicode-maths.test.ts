import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { markUnicodeMaths, unicodeMathToTex } from './unicode-maths';

// the criteria of the demo's rotating-hoop task (prisma/seed/demo/physics-derivations/bead-on-rotating-hoop_*.json, its "target")
const HOOP = [
  'Writes the Lagrangian L = ½mR²(θ̇² + Ω² sin²θ) + mgR cos θ',
  'Finds the equilibria θ = 0 and cos θ₀ = g/(RΩ²), the latter existing only for Ω² > g/R',
  'Linearises about the stable equilibrium in each regime',
  'ω = √(g/R − Ω²) for Ω² < g/R, and ω = Ω sin θ₀ = √(Ω² − g²/(R²Ω²)) for Ω² > g/R',
];

const formulas = (md: string) => [...md.matchAll(/\$([^$]+)\$/g)].map((m) => m[1]!);

describe('Unicode maths typeset like LaTeX', () => {
  it('turns Unicode maths into TeX: Greek, scripts, accents, roots, fractions, functions', () => {
    expect(unicodeMathToTex('ω² = g/R')).toBe('\\omega ^{2} = g/R');
    expect(unicodeMathToTex('θ̇²')).toBe('\\dot{\\theta}^{2}');
    expect(unicodeMathToTex('√(g/R − Ω²)')).toBe('\\sqrt{g/R - \\Omega ^{2}}');
    expect(unicodeMathToTex('½mR²')).toBe('\\tfrac12 mR^{2}');
    expect(unicodeMathToTex('cos θ₀')).toBe('\\cos \\theta _{0}');
    expect(unicodeMathToTex('θ = arccos(g/(ω²R))')).toBe('\\theta = \\arccos (g/(\\omega ^{2}R))');
  });

  it('marks the maths runs of the hoop criteria and leaves the prose, every formula valid TeX', () => {
    const marked = HOOP.map(markUnicodeMaths);
    expect(marked[0]).toMatch(/^Writes the Lagrangian \$L = /);
    expect(formulas(marked[0]!)).toHaveLength(1);
    expect(marked[1]).toMatch(
      /^Finds the equilibria \$\\theta = 0\$ and \$\\cos \\theta _\{0\} = g\/\(R\\Omega \^\{2\}\)\$, the latter existing only for \$/,
    );
    expect(marked[2]).toBe(HOOP[2]);
    expect(formulas(marked[3]!)).toHaveLength(4);
    for (const f of marked.flatMap(formulas)) expect(() => katex.renderToString(f, { throwOnError: true, strict: 'ignore' })).not.toThrow();
    // the words stay words
    for (const w of ['Writes', 'the latter existing only for', 'for', 'and']) expect(marked.join(' ')).toContain(w);
  });

  it('leaves text that marks its maths, or has none, as written', () => {
    expect(markUnicodeMaths('The energy $E = mc^2$ and ω')).toBe('The energy $E = mc^2$ and ω');
    expect(markUnicodeMaths('Run the tests and fix a bug.')).toBe('Run the tests and fix a bug.');
    expect(markUnicodeMaths('Uses `a = b` in code')).toBe('Uses `a = b` in code');
  });
});
