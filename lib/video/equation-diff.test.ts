import { describe, expect, it } from 'vitest';
import { diffEquations, equationPieces, hasChanges, markedTex, RELATED_SHARE, sharedShare, type DiffedPiece } from './equation-diff';

/** changed pieces (and parts) of one side, as TeX */
const changed = (pieces: DiffedPiece[]): string[] =>
  pieces.flatMap((p) => (p.parts ? changed(p.parts) : p.state === 'changed' && p.kind !== 'space' ? [p.tex] : []));

describe('term-level equation diff', () => {
  it('marks only the term that changed', () => {
    const d = diffEquations('a + b = c', 'a + d = c');
    expect(changed(d.before)).toEqual(['b']);
    expect(changed(d.after)).toEqual(['d']);
  });

  it('cuts at relations and binary signs, keeping fractions, brackets and environments whole', () => {
    expect(equationPieces('\\ddot\\theta = -\\left(\\frac gR - \\Omega^2\\right)\\theta').map((p) => p.tex)).toEqual([
      '\\ddot\\theta',
      '=',
      '-\\left(\\frac gR - \\Omega^2\\right)\\theta',
    ]);
    expect(equationPieces('\\omega = \\begin{cases} a, & x < 0 \\\\ b & x > 0 \\end{cases}')).toHaveLength(3);
    expect(equationPieces('x = 1 \\quad\\Longrightarrow\\quad y = 2').map((p) => p.kind)).toEqual([
      'term',
      'rel',
      'term',
      'space',
      'rel',
      'space',
      'term',
      'rel',
      'term',
    ]);
  });

  it('the ODE to its characteristic equation: derivatives become powers of r', () => {
    const d = diffEquations('m\\ddot x + b\\dot x + kx = 0', 'm r^2 + b r + k = 0');
    expect(changed(d.before)).toEqual(['\\ddot x', '\\dot x', 'x']);
    expect(changed(d.after)).toEqual(['r^2', 'r']);
  });

  it('applying initial conditions: A and B go, x_0 and gamma/omega_d come, inside the bracket', () => {
    const d = diffEquations(
      'x(t) = e^{-\\gamma t}\\left(A\\cos\\omega_d t + B\\sin\\omega_d t\\right)',
      'x(t) = x_0 e^{-\\gamma t}\\left(\\cos\\omega_d t + \\frac{\\gamma}{\\omega_d}\\sin\\omega_d t\\right)',
    );
    expect(changed(d.before)).toEqual(['A', 'B']);
    expect(changed(d.after)).toEqual(['x_0', '\\frac{\\gamma}{\\omega_d}']);
  });

  it('a sign flip is a change; spacing and \\left/\\right are not', () => {
    expect(changed(diffEquations('a + b', 'a - b').after)).toEqual(['-']);
    const same = diffEquations('\\left( a \\right) = \\tfrac12 b \\, .', '(a) = \\frac12 b');
    expect(hasChanges(same.after)).toBe(false);
    expect(hasChanges(same.before)).toBe(false);
  });

  it('wraps changed pieces in \\textcolor with the marker, nothing else', () => {
    const d = diffEquations('a + b = c', 'a + d = c');
    expect(markedTex(d.after, '#fe0001')).toBe('a + \\textcolor{#fe0001}{d} = c');
    expect(markedTex(d.before, '#fe0002')).toBe('a + \\textcolor{#fe0002}{b} = c');
  });
});

describe('related equations', () => {
  it('diffs a transformation, not a new statement', () => {
    expect(sharedShare(diffEquations('m\\ddot x + b\\dot x + kx = 0', 'm r^2 + b r + k = 0'))).toBeGreaterThanOrEqual(RELATED_SHARE);
    expect(
      sharedShare(
        diffEquations(
          '\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right) \\equiv f(\\theta)',
          '\\omega = \\begin{cases} \\sqrt{g/R - \\Omega^2}, & \\Omega^2 < g/R \\\\ \\Omega\\sin\\theta_0, & \\Omega^2 > g/R \\end{cases}',
        ),
      ),
    ).toBeLessThan(RELATED_SHARE);
  });
});
