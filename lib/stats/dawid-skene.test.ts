import { describe, expect, it } from 'vitest';
import { type Annotation, dawidSkene, majorityVote } from './dawid-skene';
import { mulberry32 } from './prng';

describe('dawidSkene', () => {
  // 400 items, 3 classes; two careful raters, one mediocre, one adversarial (systematically
  // answers the next class), one answering at random.
  const random = mulberry32(21);
  const K = 3;
  const truth = Array.from({ length: 400 }, () => Math.floor(random() * K));
  const raters: Record<string, (t: number) => number> = {
    careful1: (t) => (random() < 0.85 ? t : Math.floor(random() * K)),
    careful2: (t) => (random() < 0.8 ? t : Math.floor(random() * K)),
    mediocre: (t) => (random() < 0.55 ? t : Math.floor(random() * K)),
    adversary: (t) => (random() < 0.9 ? (t + 1) % K : t),
    noise: () => Math.floor(random() * K),
  };
  const annotations: Annotation[] = [];
  truth.forEach((t, item) => {
    for (const [rater, answer] of Object.entries(raters)) annotations.push({ item, rater, label: `c${answer(t)}` });
  });
  const result = dawidSkene(annotations);

  it('recovers the truth better than majority vote', () => {
    const mv = majorityVote(annotations);
    const mvAccuracy = truth.filter((t, i) => mv.get(i) === `c${t}`).length / truth.length;
    const dsAccuracy = truth.filter((t, i) => result.items[i]!.label === `c${t}`).length / truth.length;
    expect(dsAccuracy).toBeGreaterThan(mvAccuracy + 0.05);
    expect(dsAccuracy).toBeGreaterThan(0.9);
    expect(result.converged).toBe(true);
  });

  it('orders the estimated rater accuracies correctly and learns the adversary confusion', () => {
    const acc = Object.fromEntries(result.raters.map((r) => [r.rater, r.accuracy]));
    expect(acc.careful1!).toBeGreaterThan(acc.careful2!);
    expect(acc.careful2!).toBeGreaterThan(acc.mediocre!);
    expect(acc.mediocre!).toBeGreaterThan(acc.noise!);
    expect(acc.noise!).toBeGreaterThan(acc.adversary!);
    const adversary = result.raters.find((r) => r.rater === 'adversary')!;
    // truth c0 -> answers c1 most of the time
    expect(adversary.confusion[0]![1]).toBeGreaterThan(0.8);
    for (const r of result.raters) for (const row of r.confusion) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (const item of result.items) expect(item.posterior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('is deterministic and breaks ties toward the first class', () => {
    const tie: Annotation[] = [
      { item: 'x', rater: 'a', label: 'yes' },
      { item: 'x', rater: 'b', label: 'no' },
    ];
    const r = dawidSkene(tie);
    expect(r.classes).toEqual(['no', 'yes']);
    expect(r.items[0]!.posterior[0]).toBeCloseTo(0.5, 12);
    expect(r.items[0]!.label).toBe('no');
    expect(dawidSkene(annotations)).toEqual(result);
  });

  it('rejects bad input', () => {
    expect(() => dawidSkene([])).toThrow(/at least one annotation/);
    expect(() => dawidSkene([{ item: 1, rater: 'a', label: null as unknown as string }])).toThrow(/label must be/);
  });
});
