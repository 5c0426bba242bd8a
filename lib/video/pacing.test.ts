import { describe, expect, it } from 'vitest';
import {
  countMathTokens,
  countWords,
  defaultPacing,
  displayEquationSeconds,
  readCardSeconds,
  READING,
  richTextReadingSeconds,
} from './pacing';
import { mathSegments } from './text';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 7 === 0 ? '' : 's'}`).join(' ');

describe('read pacing', () => {
  it('gives a 300-word message at least the time to read it at 230 words a minute', () => {
    const text = mathSegments(words(300));
    expect(countWords(words(300))).toBe(300);
    const seconds = readCardSeconds({ text });
    expect(seconds).toBeGreaterThanOrEqual((300 / 230) * 60); // 78.3 s
    expect(seconds).toBeLessThanOrEqual(READING.cardMaxSeconds);
  });

  it('weighs maths more than prose of the same length', () => {
    // the same number of characters, prose vs an inline formula
    const formula = 'f(\\theta) = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right)';
    const prose = 'x'.repeat(4) + ' ' + 'the bead slides on the hoop and it turns at a rate that we call big omega here';
    const proseOfSameLength = prose.slice(0, formula.length);
    expect(richTextReadingSeconds(mathSegments(`$${formula}$`))).toBeGreaterThan(richTextReadingSeconds(mathSegments(proseOfSameLength)));
    // a display equation takes seconds, not a fraction of one
    expect(displayEquationSeconds('\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac gR\\right)')).toBeGreaterThan(5);
    // and more than the same tokens written inline
    expect(richTextReadingSeconds(mathSegments(`$$${formula}$$`))).toBeGreaterThan(richTextReadingSeconds(mathSegments(`$${formula}$`)));
  });

  it('counts maths tokens, not structure', () => {
    expect(countMathTokens('x')).toBe(1);
    expect(countMathTokens('\\frac{a}{b}')).toBe(3);
    expect(countMathTokens('\\left( a + b \\right)^{2}')).toBe(4);
    expect(countMathTokens('m\\ddot x + b\\dot x + kx = 0')).toBe(12);
  });

  it('times code by lines, holds a floor and caps a card', () => {
    expect(readCardSeconds({ text: [] })).toBe(READING.cardMinSeconds);
    expect(readCardSeconds({ text: [], codeLines: 10 })).toBeCloseTo(READING.orientSeconds + 10 * READING.codeLineSeconds);
    expect(readCardSeconds({ text: [], outputLines: 20 })).toBeLessThan(readCardSeconds({ text: [], codeLines: 20 }));
    expect(readCardSeconds({ text: mathSegments(words(5000)) })).toBe(READING.cardMaxSeconds);
  });

  it('defaults to read for a campaign that requires an expertise', () => {
    expect(defaultPacing(['physics'])).toBe('read');
    expect(defaultPacing([])).toBe('skim');
  });
});
