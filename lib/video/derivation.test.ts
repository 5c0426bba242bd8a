import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { boxedContents, derivationBeats, finalAnswer } from './derivation';
import { mathSegments, richTextSource } from './text';

const steps = (texts: string[]) =>
  buildTrajectory({
    format: 'openai',
    task: { name: 't', instruction: 'Derive it.' },
    policy: { model: 'm' },
    steps: [{ source: 'user', text: 'Derive it.' }, ...texts.map((text) => ({ source: 'agent' as const, text }))],
  }).steps;

describe('derivation beats', () => {
  it('pairs each display equation with the prose before it, in order, and ends with the prose after the last', () => {
    const beats = derivationBeats(mathSegments('First we write\n\n$$a = b$$\n\nthen\n\n\\[ c = d \\]\n\nSo done.'));
    expect(beats.map((b) => b.equation)).toEqual(['a = b', 'c = d', null]);
    expect(beats[0]!.prose).toEqual([{ k: 'text', text: 'First we write' }]);
    expect(beats[2]!.prose).toEqual([{ k: 'text', text: 'So done.' }]);
  });

  it('gives long prose beats of its own, and a placeholder like $$...$$ is not an equation', () => {
    const long = Array.from({ length: 10 }, (_, i) => `Paragraph ${i} ${'is long enough to matter. '.repeat(5)}`).join('\n\n');
    const beats = derivationBeats(mathSegments(`${long}\n\n$$x = 1$$`));
    expect(beats.length).toBeGreaterThan(2);
    expect(beats[beats.length - 1]!.equation).toBe('x = 1');
    expect(derivationBeats(mathSegments('Write maths as $$...$$ please.')).every((b) => b.equation === null)).toBe(true);
  });
});

describe('final answer', () => {
  it('prefers a boxed expression, then an ANSWER line, then the last display equation of the final step', () => {
    expect(finalAnswer(steps(['So $$\\boxed{x = 2}$$ and ANSWER: $y$']))).toMatchObject({ source: 'boxed', maths: ['x = 2'] });
    expect(finalAnswer(steps(['Work $$a=b$$', 'ANSWER: $\\omega = \\sqrt{g/L}$']))).toMatchObject({
      source: 'answer-line',
      step: 2,
      maths: ['\\omega = \\sqrt{g/L}'],
    });
    expect(finalAnswer(steps(['$$a = b$$ then $$c = d$$']))).toMatchObject({ source: 'last-equation', maths: ['c = d'] });
    expect(finalAnswer(steps(['No maths here.']))).toBeNull();
  });

  it('reads nested braces in \\boxed', () => {
    expect(boxedContents('\\boxed{\\frac{a}{b}} + \\boxed {c}')).toEqual(['\\frac{a}{b}', 'c']);
  });
});

describe('punctuation after a display equation', () => {
  it('goes with the equation, never a beat or a line of its own', () => {
    const beats = derivationBeats(mathSegments('so\n\n$$a = b$$.\n\nThen\n\n$$c = d$$, where $d$ is small.'));
    expect(beats.map((b) => b.equation)).toEqual(['a = b .', 'c = d ,', null]);
    expect(beats.every((b) => b.prose.every((s) => s.k !== 'text' || !/^\s*[.,]\s*$/.test(s.text)))).toBe(true);
    expect(beats[2]!.prose[0]).toEqual({ k: 'text', text: 'where ' });
    // and the video's Markdown for a card puts it inside the display
    expect(richTextSource(mathSegments('The sum is\n$$S = 1$$.\nDone.'))).toBe('The sum is\n$$S = 1 .$$\n\nDone.');
  });
});
