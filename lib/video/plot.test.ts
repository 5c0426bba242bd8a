import { describe, expect, it } from 'vitest';
import { answerPlot, knownValues } from './plot';

describe('answer plot', () => {
  it('samples a known formula: RC charging, V(t) = V_0(1 - e^{-t/RC}) with RC = 1 s', () => {
    const plot = answerPlot(
      ['V(t) = V_0\\left(1 - e^{-t/RC}\\right)'],
      ['V_0 = 5\\,\\mathrm{V}', 'R = 1000\\,\\Omega', 'C = 1\\,\\mathrm{mF}', '0 \\le t \\le 5\\,\\mathrm{s}'],
    )!;
    expect(plot).not.toBeNull();
    expect(plot.xTex).toBe('t');
    expect(plot.yTex).toBe('V(t)');
    expect([plot.xFrom, plot.xTo]).toEqual([0, 5]);
    const pts = plot.points.filter((p): p is [number, number] => p !== null);
    expect(pts.length).toBe(241);
    for (const [t, v] of pts) expect(v).toBeCloseTo(5 * (1 - Math.exp(-t)), 3);
    expect(pts[0]).toEqual([0, 0]);
    // ticks cover the data
    expect(plot.yFrom).toBeLessThanOrEqual(0);
    expect(plot.yTo).toBeGreaterThanOrEqual(5 * (1 - Math.exp(-5)));
    expect(plot.xTicks).toEqual([0, 1, 2, 3, 4, 5]);
    expect(plot.given).toEqual(['V_0 = 5\\,\\mathrm{V}', 'R = 1000\\,\\Omega', 'C = 1\\,\\mathrm{mF}']);
  });

  it("resolves derived values and reads \\gamma as a variable, not Euler's constant", () => {
    const plot = answerPlot(
      ['x(t) = x_0 e^{-\\gamma t}\\left(\\cos\\omega_d t + \\frac{\\gamma}{\\omega_d}\\sin\\omega_d t\\right)'],
      [
        'm = 0.5\\,\\mathrm{kg}',
        'k = 20\\,\\mathrm{N/m}',
        'b = 0.4\\,\\mathrm{kg/s}',
        'x_0 = 0.1\\,\\mathrm{m}',
        '0 \\le t \\le 10\\,\\mathrm{s}',
        '\\gamma = b/2m',
        '\\omega_d = \\sqrt{k/m-\\gamma^2}',
      ],
    )!;
    const g = 0.4;
    const w = Math.sqrt(40 - g * g);
    const pts = plot.points.filter((p): p is [number, number] => p !== null);
    for (const [t, x] of pts) expect(x).toBeCloseTo(0.1 * Math.exp(-g * t) * (Math.cos(w * t) + (g / w) * Math.sin(w * t)), 3);
  });

  it('breaks the line where the formula is not real (sqrt of a negative)', () => {
    const plot = answerPlot(['\\omega = \\sqrt{g/R - \\Omega^2}'], ['g = 9.81', 'R = 0.5', '0 \\le \\Omega \\le 8'])!;
    expect(plot.xTex).toBe('\\Omega');
    const last = plot.points[plot.points.length - 1];
    expect(last).not.toBeNull(); // trailing gaps are dropped
    expect(Math.max(...plot.points.flatMap((p) => (p ? [p[0]] : [])))).toBeLessThanOrEqual(Math.sqrt(9.81 / 0.5) + 0.05);
  });

  it('gives no plot, and no error, when the formula cannot be evaluated', () => {
    // a free symbol without a value
    expect(answerPlot(['\\omega = \\sqrt{g/R - \\Omega^2}'], ['0 \\le \\Omega \\le 8'])).toBeNull();
    // no range for the variable
    expect(answerPlot(['\\omega = \\sqrt{3g/(2L)}'], ['g = 9.81'])).toBeNull();
    // piecewise, unknown functions, not an equation, nonsense
    expect(answerPlot(['\\omega = \\begin{cases} a & b \\\\ c & d \\end{cases}'], ['a = 1', '0 \\le b \\le 1'])).toBeNull();
    expect(answerPlot(['y = f(x)'], ['0 \\le x \\le 1'])).toBeNull();
    expect(answerPlot(['\\Omega^2 > g/R'], ['g = 1', 'R = 1'])).toBeNull();
    expect(answerPlot(['\\frac{'], ['}'])).toBeNull();
  });

  it('reads values with SI prefixes and several statements in one formula', () => {
    const k = knownValues(['C = 100\\,\\mu\\mathrm{F}, \\quad R = 10\\,\\mathrm{k\\Omega}', 't \\in [0, 2]', 'T = 5\\,\\mathrm{ms}']);
    expect(k.values.get('C')).toBeCloseTo(1e-4);
    expect(k.values.get('R')).toBeCloseTo(1e4);
    expect(k.values.get('T')).toBeCloseTo(5e-3);
    expect(k.ranges.get('t')).toMatchObject({ from: 0, to: 2 });
  });
});
