import { describe, expect, it } from 'vitest';
import { wilson } from '../insight/intervals';
import {
  addMoments,
  estimatePpiDifference,
  estimatePpiMean,
  estimatePpiMeanColumns,
  estimatePpiMeanFromMoments,
  momentsAtPrediction,
  moverDifference,
  type PpiItem,
  type PpiMeanResult,
  type PpiMoments,
} from './ppi';
import { mulberry32 } from './prng';

// Six items, four reviewed (a simple random sample: no probabilities given).
const f = [0.9, 0.8, 0.2, 0.1, 0.8, 0.6];
const y = [1, 1, 0, 1, null, null];
const small: PpiItem[] = f.map((prediction, i) => ({ prediction, label: y[i] }));

describe('estimatePpiMean: hand-computed', () => {
  it('six items, four labels, uniform design', () => {
    // By hand: N = 6, n = 4, normalised weight w = N / n = 1.5; ybar = 0.75, fbar_lab = 0.5,
    // fbar = 3.4 / 6 = 0.566667.
    // a = w (y - ybar) = [0.375, 0.375, -1.125, 0.375, 0, 0]
    // b = w (f - fbar_lab) - (f - fbar) = [0.266667, 0.216667, -0.083333, -0.133333, -0.233333, -0.033333]
    // sum ab = 0.225, sum bb = 0.198333 -> lambda = 1.134, clipped to 1
    // estimate = 1 * 0.566667 + (0.75 - 1 * 0.5) = 0.816667
    // sum aa = 1.6875; V = (1.6875 - 2 * 0.225 + 0.198333) / 36 * 4/3 = 0.0531790
    // labels' variance = 0.1875 * 4/3 = 0.25 -> effective labels m = 0.25 / 0.053179 = 4.7011
    // interval: Wilson at p = 0.816667, m = 4.7011, z^2 = 3.841459: denom = 1 + z^2/m = 1.817146,
    // centre = (p + z^2/(2m)) / denom = 0.674267, half = z/denom * sqrt(p(1-p)/m + z^2/(4m^2)) = 0.295985
    const r = estimatePpiMean(small);
    expect(r.labeled).toBe(4);
    expect(r.unlabeled).toBe(2);
    expect(r.design).toBe('uniform');
    expect(r.ppi!.lambda).toBe(1);
    expect(r.ppi!.estimate).toBeCloseTo(0.816667, 6);
    expect(r.ppi!.low).toBeCloseTo(0.674267 - 0.295985, 5);
    expect(r.ppi!.high).toBeCloseTo(0.674267 + 0.295985, 5);
    expect(r.variance).toBeCloseTo(0.25, 12);
    expect(r.effectiveLabels).toBeCloseTo(4.7011, 4);
    // human-only: Wilson on 3 of 4, as the insight pages compute reviewer pass rates
    const w = wilson(3, 4);
    expect(r.human).toEqual({ estimate: 0.75, low: w.ci![0], high: w.ci![1] });
  });

  it('with probabilities: weights 1/pi, Hájek-normalised (numbers from bench/ppi_numpy.py)', () => {
    const p = [0.5, 0.9, 0.25, 0.5, 0.4, 0.8];
    const r = estimatePpiMean(small.map((it, i) => ({ ...it, probability: p[i] })));
    // human: sum w y / sum w = (2 + 1.1111 + 2) / (2 + 1.1111 + 4 + 2) = 5.1111 / 9.1111
    expect(r.human!.estimate).toBeCloseTo(5.1111111 / 9.1111111, 6);
    expect(r.design).toBe('weighted');
    // numpy reference (bench/ppi_numpy.py estimate()):
    expect(r.human!.low).toBeCloseTo(0.15329361541421332, 8);
    expect(r.human!.high).toBeCloseTo(0.9001815797106252, 8);
    expect(r.ppi!.estimate).toBeCloseTo(0.7227642276422763, 10);
    expect(r.ppi!.low).toBeCloseTo(0.28581215146295136, 8);
    expect(r.ppi!.high).toBeCloseTo(0.9443933914955042, 8);
    expect(r.ppi!.lambda).toBe(1);
    expect(r.effectiveLabels).toBeCloseTo(4.106971729191402, 9);
  });

  it('a fixed lambda: 0 is the human-only estimate, 1 the original PPI', () => {
    const zero = estimatePpiMean(small, { lambda: 0 });
    expect(zero.ppi).toEqual({ ...zero.human, lambda: 0 });
    expect(zero.effectiveLabels).toBeCloseTo(4, 12); // uniform design at lambda 0: exactly the labels in hand
    const one = estimatePpiMean(small, { lambda: 1 });
    expect(one.ppi!.estimate).toBeCloseTo(0.566667 + 0.25, 6); // mean(f) + mean_lab(y - f)
  });

  it('everything reviewed: the predictor cannot help (lambda 0, effective labels = n)', () => {
    const all = f.map((prediction, i) => ({ prediction, label: i % 2, probability: 1 }));
    const r = estimatePpiMean(all);
    expect(r.unlabeled).toBe(0);
    expect(r.ppi!.lambda).toBe(0);
    expect(r.ppi!.estimate).toBe(0.5);
    expect(r.effectiveLabels).toBe(6);
  });

  it('no labels: no estimate; one label: the human figure only', () => {
    const none = estimatePpiMean(f.map((prediction) => ({ prediction })));
    expect(none).toMatchObject({ labeled: 0, unlabeled: 6, human: null, ppi: null, effectiveLabels: 0 });
    const one = estimatePpiMean(f.map((prediction, i) => ({ prediction, label: i === 0 ? 1 : null })));
    expect(one.ppi).toEqual({ ...one.human!, lambda: 0 });
  });

  it('all labels equal: no zero-width interval (the human Wilson interval stands)', () => {
    const r = estimatePpiMean(f.map((prediction, i) => ({ prediction, label: i < 4 ? 1 : null })));
    expect(r.ppi!.lambda).toBe(0);
    expect(r.ppi!.low).toBeLessThan(0.6);
    expect(r.ppi!.high).toBe(1);
  });

  it('rejects bad input, naming the item', () => {
    expect(() => estimatePpiMean([{ prediction: 1.5 }])).toThrow('item 0: prediction must be a number in [0, 1]; got 1.5');
    expect(() => estimatePpiMean([{ prediction: 0.5, label: 2 }])).toThrow('item 0: label must be in [0, 1]; got 2');
    expect(() => estimatePpiMean([{ prediction: 0.5, probability: 0 }])).toThrow('item 0: probability must be in (0, 1]; got 0');
    expect(() => estimatePpiMean([{ prediction: 0.5, probability: 0.5 }, { prediction: 0.5 }])).toThrow(
      'probability must be given for every item or for none; 1 of 2 items have one',
    );
    expect(() => estimatePpiMean(small, { alpha: 0 })).toThrow('alpha must be in (0, 1)');
  });
});

describe('estimatePpiMean: a useless predictor falls back to the human-only estimate', () => {
  it('a constant predictor gives lambda 0 exactly', () => {
    const r = estimatePpiMean(small.map((it) => ({ ...it, prediction: 0.7 })));
    expect(r.ppi).toEqual({ ...r.human!, lambda: 0 });
    expect(r.effectiveLabels).toBeCloseTo(4, 12);
  });

  it('a predictor that anti-correlates is clipped to lambda 0', () => {
    const r = estimatePpiMean(small.map((it) => ({ ...it, prediction: 1 - it.prediction })));
    expect(r.ppi!.lambda).toBe(0);
    expect(r.ppi!.estimate).toBe(r.human!.estimate);
  });

  it('noise independent of the labels: lambda near 0, the same estimate and width as human-only', () => {
    const random = mulberry32(99);
    const N = 20_000;
    const prediction = new Float64Array(N);
    const label = new Float64Array(N).fill(Number.NaN);
    for (let i = 0; i < N; i++) {
      prediction[i] = random();
      if (i < 1000) label[i] = random() < 0.3 ? 1 : 0;
    }
    const r = estimatePpiMeanColumns({ prediction, label });
    expect(r.ppi!.lambda).toBeLessThan(0.1);
    expect(Math.abs(r.ppi!.estimate - r.human!.estimate)).toBeLessThan(0.005);
    const width = (i: { low: number; high: number }) => i.high - i.low;
    expect(width(r.ppi!) / width(r.human!)).toBeGreaterThan(0.97);
    expect(r.effectiveLabels).toBeLessThan(1000 * 1.05);
  });
});

describe('estimatePpiDifference', () => {
  it('combines the two groups by MOVER; symmetric intervals give the Wald difference', () => {
    const d = moverDifference({ estimate: 0.4, low: 0.3, high: 0.5 }, { estimate: 0.6, low: 0.52, high: 0.68 });
    expect(d!.estimate).toBeCloseTo(0.2, 12);
    expect(d!.low).toBeCloseTo(0.2 - Math.hypot(0.08, 0.1), 12);
    expect(d!.high).toBeCloseTo(0.2 + Math.hypot(0.08, 0.1), 12);
    const r = estimatePpiDifference(
      small,
      small.map((it) => ({ ...it, label: it.label === null ? null : 1 })),
    );
    expect(r.human!.estimate).toBeCloseTo(0.25, 12);
    expect(r.first.labeled).toBe(4);
    expect(moverDifference(null, r.second.human)).toBeNull();
  });
});

/** The plain sums of `items` (what SQL's count and sum give), written out for the test. */
function momentsOf(items: readonly PpiItem[]): PpiMoments {
  const m: PpiMoments = {
    ...{ N: 0, sumF: 0, sumFF: 0, n: 0, sumW: 0, sumW2: 0, sumWY: 0, sumWF: 0, sumWYY: 0, sumWYF: 0, sumWFF: 0 },
    ...{ sumW2Y: 0, sumW2F: 0, sumW2YY: 0, sumW2YF: 0, sumW2FF: 0 },
    uniform: new Set(items.map((it) => it.probability ?? 1)).size <= 1,
  };
  for (const { prediction: f, label: y, probability } of items) {
    m.N++;
    m.sumF += f;
    m.sumFF += f * f;
    if (y === null || y === undefined) continue;
    const w = 1 / (probability ?? 1);
    m.n++;
    m.sumW += w;
    m.sumW2 += w * w;
    m.sumWY += w * y;
    m.sumWF += w * f;
    m.sumWYY += w * y * y;
    m.sumWYF += w * y * f;
    m.sumWFF += w * f * f;
    m.sumW2Y += w * w * y;
    m.sumW2F += w * w * f;
    m.sumW2YY += w * w * y * y;
    m.sumW2YF += w * w * y * f;
    m.sumW2FF += w * w * f * f;
  }
  return m;
}

function expectSameResult(a: PpiMeanResult, b: PpiMeanResult) {
  expect(a.labeled).toBe(b.labeled);
  expect(a.unlabeled).toBe(b.unlabeled);
  expect(a.design).toBe(b.design);
  for (const k of ['human', 'ppi'] as const) {
    if (b[k] === null) expect(a[k]).toBeNull();
    else for (const f of ['estimate', 'low', 'high'] as const) expect(a[k]![f]).toBeCloseTo(b[k]![f], 12);
  }
  expect(a.ppi?.lambda ?? null).toBeCloseTo(b.ppi?.lambda ?? 0, 10);
  expect(a.effectiveLabels).toBeCloseTo(b.effectiveLabels, 8);
  for (const k of ['variance', 'residualShare'] as const)
    if (Number.isNaN(b[k])) expect(a[k]).toBeNaN();
    else expect(a[k]).toBeCloseTo(b[k], 10);
}

describe('estimatePpiMeanFromMoments: the same estimate from sufficient statistics', () => {
  it('equals the items path on random data, uniform and weighted, and on the degenerate cases', () => {
    const random = mulberry32(7);
    const cases: PpiItem[][] = [
      small,
      small.map((it, i) => ({ ...it, probability: [0.5, 0.9, 0.25, 0.5, 0.4, 0.8][i] })),
      small.map((it) => ({ ...it, prediction: 0.7 })), // constant predictor: lambda 0
      small.map((it) => ({ ...it, prediction: 1 - it.prediction })), // anti-correlated: clipped to 0
      f.map((prediction, i) => ({ prediction, label: i % 2, probability: 1 })), // everything reviewed
      f.map((prediction, i) => ({ prediction, label: i < 4 ? 1 : null })), // all labels equal
      f.map((prediction) => ({ prediction })), // no labels
      f.map((prediction, i) => ({ prediction, label: i === 0 ? 1 : null })), // one label
    ];
    for (const weighted of [false, true])
      for (const size of [50, 5000]) {
        cases.push(
          Array.from({ length: size }, () => {
            const prediction = Math.round(random() * 6) / 6;
            const probability = weighted ? [0.05, 0.3, 1][Math.floor(random() * 3)]! : undefined;
            const label = random() < (probability ?? 0.2) ? (random() < 0.3 + 0.5 * prediction ? 1 : 0) : null;
            return { prediction, label, probability };
          }),
        );
      }
    for (const items of cases) expectSameResult(estimatePpiMeanFromMoments(momentsOf(items)), estimatePpiMean(items));
  });

  it('a block with one shared prediction adds to the rest (the fill of a source that did not score an item)', () => {
    const items = small.map((it, i) => ({ ...it, prediction: i < 3 ? it.prediction : 0.55 }));
    const blank = momentsOf(items.slice(3).map((it) => ({ ...it, prediction: 0 })));
    const joined = addMoments(momentsOf(items.slice(0, 3)), momentsAtPrediction(blank, 0.55), true);
    expectSameResult(estimatePpiMeanFromMoments(joined), estimatePpiMean(items));
  });

  it('rejects sums no set of items has, naming them', () => {
    expect(() => estimatePpiMeanFromMoments({ ...momentsOf(small), sumW: -1 })).toThrow(
      'moments: sumW must be a finite number >= 0; got -1',
    );
    expect(() => estimatePpiMeanFromMoments({ ...momentsOf(small), n: 7 })).toThrow('n <= N; got N = 6, n = 7');
  });
});
