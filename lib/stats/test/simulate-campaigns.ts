import { activeSamplingProbabilities } from '../active-sampling';
import { estimatePpiMeanColumns, type PpiMeanResult } from '../ppi';
import { mulberry32, type Random } from '../prng';

/**
 * Simulated campaigns with a known truth, for the coverage tests of ppi.ts (and the figures in
 * the issue note). Each campaign draws N items with a latent x ~ U(0, 1); the item passes with
 * probability g(x) (the truth is E[g(x)], computed exactly); a judge scores every item; some
 * items are reviewed (their label drawn), either a simple random sample of `labels` items or
 * each item independently with its active probability (budget `labels`).
 */
export type Judge = 'unbiased' | 'biased' | 'useless';

export interface Scenario {
  campaigns: number;
  items: number;
  labels: number;
  judge: Judge;
  /** g(x): 'linear' = 0.1 + 0.6 x (truth 0.4); 'steep' = logistic(10 (x - 0.3)) (most items near-certain) */
  truth: 'linear' | 'steep';
  design: 'random' | 'active';
  /** active design: the floor probability (default: activeSamplingProbabilities' own) */
  floor?: number;
  seed: number;
}

export interface ScenarioSummary {
  truth: number;
  coverage: { human: number; ppi: number };
  meanEstimate: { human: number; ppi: number };
  meanWidth: { human: number; ppi: number };
  meanLambda: number;
  meanEffectiveLabels: number;
  /** the unweighted mean of the labels (what ignoring the design would report) */
  meanNaive: number;
  /** the judge's own mean score (its bias: meanPrediction - truth) */
  meanPrediction: number;
}

const steep = (x: number) => 1 / (1 + Math.exp(-10 * (x - 0.3)));
const linear = (x: number) => 0.1 + 0.6 * x;

export function truthOf(kind: Scenario['truth']): number {
  if (kind === 'linear') return 0.4;
  // integral_0^1 logistic(10 (x - 0.3)) dx = [ln(1 + e^(10 (x - 0.3))) / 10]_0^1
  return (Math.log1p(Math.exp(7)) - Math.log1p(Math.exp(-3))) / 10;
}

function judgeScore(judge: Judge, g: number, random: Random): number {
  if (judge === 'unbiased') return g;
  if (judge === 'biased') return Math.min(1, Math.sqrt(g) + 0.1); // over-generous and miscalibrated, saturating at 1 on items that still fail up to 19%
  return random();
}

export function simulate(s: Scenario): ScenarioSummary {
  const random = mulberry32(s.seed);
  const g = s.truth === 'linear' ? linear : steep;
  const truth = truthOf(s.truth);
  const prediction = new Float64Array(s.items);
  const label = new Float64Array(s.items);
  const pass = new Float64Array(s.items);
  const order = new Int32Array(s.items);
  const acc = { hc: 0, pc: 0, he: 0, pe: 0, hw: 0, pw: 0, lambda: 0, eff: 0, naive: 0, prediction: 0, runs: 0 };
  for (let c = 0; c < s.campaigns; c++) {
    for (let i = 0; i < s.items; i++) {
      const p = g(random());
      pass[i] = random() < p ? 1 : 0;
      prediction[i] = judgeScore(s.judge, p, random);
      label[i] = Number.NaN;
    }
    let probability: Float64Array | null = null;
    if (s.design === 'random') {
      for (let i = 0; i < s.items; i++) order[i] = i;
      for (let k = 0; k < s.labels; k++) {
        const j = k + Math.floor(random() * (s.items - k)); // partial Fisher-Yates
        const t = order[k]!;
        order[k] = order[j]!;
        order[j] = t;
        label[order[k]!] = pass[order[k]!]!;
      }
    } else {
      probability = activeSamplingProbabilities(
        Array.from(prediction, (p) => ({ prediction: p })),
        { budget: s.labels, floor: s.floor },
      );
      for (let i = 0; i < s.items; i++) if (random() < probability[i]!) label[i] = pass[i]!;
    }
    const r: PpiMeanResult = estimatePpiMeanColumns({ prediction, label, probability });
    if (!r.human || !r.ppi) continue;
    acc.runs++;
    acc.hc += r.human.low <= truth && truth <= r.human.high ? 1 : 0;
    acc.pc += r.ppi.low <= truth && truth <= r.ppi.high ? 1 : 0;
    acc.he += r.human.estimate;
    acc.pe += r.ppi.estimate;
    acc.hw += r.human.high - r.human.low;
    acc.pw += r.ppi.high - r.ppi.low;
    acc.lambda += r.ppi.lambda;
    acc.eff += r.effectiveLabels;
    let sum = 0;
    let n = 0;
    let sumF = 0;
    for (let i = 0; i < s.items; i++) {
      sumF += prediction[i]!;
      if (label[i] === label[i]) {
        sum += label[i]!;
        n++;
      }
    }
    acc.naive += sum / n;
    acc.prediction += sumF / s.items;
  }
  const m = acc.runs;
  return {
    truth,
    coverage: { human: acc.hc / m, ppi: acc.pc / m },
    meanEstimate: { human: acc.he / m, ppi: acc.pe / m },
    meanWidth: { human: acc.hw / m, ppi: acc.pw / m },
    meanLambda: acc.lambda / m,
    meanEffectiveLabels: acc.eff / m,
    meanNaive: acc.naive / m,
    meanPrediction: acc.prediction / m,
  };
}
