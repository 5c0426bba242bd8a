import { judgePass, judgeScale } from '../agreement/audit';
import { AGENT_SOURCE_PREFIX } from './agent-predictions';
import type { EstimateRow, PairEstimateRow, PickedCampaign } from './queries/insight-estimate-rows';
import { fitCombinedPredictor } from '../stats/combined-predictor';
import type { GroupMoments } from './queries/insight-estimate-stats';
import {
  addMoments,
  estimatePpiMean,
  estimatePpiMeanFromMoments,
  momentsAtPrediction,
  type Interval,
  type PpiItem,
  type PpiMeanResult,
} from '../stats/ppi';
import { toCsv } from '../csv';
import { VERIFIER_PASS_THRESHOLD } from './review-verdict';

/**
 * The prediction-powered figures of the insight pages (lib/stats/ppi.ts does the statistics):
 * for each rate reported from reviews, over a group's sampling frame (lib/insight/queries/insight-estimate-rows.ts),
 * the human-only estimate and the PPI++ estimate, each with its 95% interval, the effective number
 * of human reviews, and which predictor was used.
 *
 * Figures: `reviewerPass` (label: the majority verdict, 1 pass / 0 fail, a tie is unlabelled),
 * `rewardHacking` and `answerLeakage` (label: a current review flags it; every reviewed
 * trajectory is labelled).
 *
 * Predictors, each a 0..1 score on every trajectory of the frame: `verifier` (reward / 1,
 * clipped), `judge:<name>` (the judge's score brought onto 0..1 as the audit does, or its
 * pass/fail label), `agent:<model>` (an agent reviewer's reviews, never counted as human labels:
 * the share of its current reviews that pass the trajectory, lib/insight/agent-predictions.ts), and `combined` (lib/stats/combined-predictor.ts: a logistic fit of the
 * label on all of them, cross-fitted over folds of the labelled items, so no item's prediction
 * comes from a fit that saw its label). A trajectory a source did not score gets the
 * source's mean over the frame (a fixed fill: PPI stays valid for any predictor). The choice is
 * fixed in advance, never by which interval comes out narrowest: the combination when there are
 * at least two sources and enough labels to fit it (lib/stats/combined-predictor.ts says when),
 * else the source that scored most trajectories (the verifier on a tie). PPI++'s tuned lambda falls back to the human-only
 * estimate when the predictor tells nothing.
 *
 * Not a random sample: when a trajectory of the group is an item of a hand-picked campaign, only
 * the human-only figure is given (`randomSample: false`, `pickedCampaigns` names them).
 */
export const ESTIMATE_FIGURES = ['reviewerPass', 'rewardHacking', 'answerLeakage'] as const;
export type EstimateFigure = (typeof ESTIMATE_FIGURES)[number];

/** The figures of the environments and policies pages, and the compare page's win rate. */
export type FigureKey = EstimateFigure | 'winRate';

export const FIGURE_LABELS: Record<FigureKey, string> = {
  winRate: 'Win rate of B over A',
  reviewerPass: 'Reviewer pass rate',
  rewardHacking: 'Reward hacking rate',
  answerLeakage: 'Answer leakage rate',
};

/** Folds of the cross-fitted combination. */
export const COMBINE_FOLDS = 5;

export interface PredictorChoice {
  /** 'verifier', 'judge:<name>', 'combined' or 'none' (no source scored the group: human-only) */
  key: string;
  /** what the page says */
  description: string;
}

const NO_SOURCE: PredictorChoice = { key: 'none', description: 'no judge or verifier score: human reviews only' };

export interface GroupEstimate {
  group: string;
  groupId: string;
  figure: FigureKey;
  /** trajectories of the frame in the group */
  population: number;
  labeled: number;
  randomSample: boolean;
  design: 'uniform' | 'weighted';
  human: Interval | null;
  /** null when the sample is not random or nothing is labelled */
  ppi: (Interval & { lambda: number }) | null;
  effectiveLabels: number | null;
  predictor: PredictorChoice;
  variance: number | null;
  residualShare: number | null;
}

/** One input row of a figure, as the download writes it and `witness estimate` reads it. */
export interface EstimateInputRow {
  item: string;
  prediction: number;
  label: number | null;
  probability: number;
  group: string;
}

export function figureLabel(row: EstimateRow, figure: EstimateFigure): number | null {
  if (figure === 'reviewerPass') return row.passVotes > row.failVotes ? 1 : row.passVotes < row.failVotes ? 0 : null;
  if (row.reviews === 0) return null;
  return (figure === 'rewardHacking' ? row.rewardHacking : row.answerLeakage) ? 1 : 0;
}

/** The automated sources' 0..1 scores per row (null where the source did not score it), keyed by predictor key. */
export function sourceScores(rows: readonly EstimateRow[]): Map<string, (number | null)[]> {
  const scales = new Map<string, number>();
  const judgeScores = new Map<string, number[]>();
  for (const r of rows)
    for (const j of r.judges) {
      if (j.score === null) continue;
      const list = judgeScores.get(j.judge);
      if (list) list.push(j.score);
      else judgeScores.set(j.judge, [j.score]);
    }
  for (const [judge, list] of judgeScores) scales.set(judge, judgeScale(list));
  const out = new Map<string, (number | null)[]>();
  const verifier = rows.map((r) => (r.verifierReward === null ? null : clip01(r.verifierReward / VERIFIER_PASS_THRESHOLD)));
  if (verifier.some((v) => v !== null)) out.set('verifier', verifier);
  const judges = [...new Set(rows.flatMap((r) => r.judges.map((j) => j.judge)))].sort();
  for (const judge of judges) {
    const scale = scales.get(judge) ?? 1;
    out.set(
      judge.startsWith(AGENT_SOURCE_PREFIX) ? judge : `judge:${judge}`,
      rows.map((r) => {
        const j = r.judges.find((x) => x.judge === judge);
        if (!j) return null;
        if (j.score !== null) return clip01(j.score / scale);
        const pass = judgePass(null, j.label, 0.5);
        return pass === null ? null : pass === 'pass' ? 1 : 0;
      }),
    );
  }
  return out;
}

/** Missing scores filled with the source's mean over the rows (a fixed function of the unlabelled data). */
export function filled(scores: readonly (number | null)[]): number[] {
  const present = scores.filter((s): s is number => s !== null);
  const mean = present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0.5;
  return scores.map((s) => s ?? mean);
}

function clip01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** The fixed predictor rule (see the file comment) and its prediction per row. */
export function choosePredictor(
  rows: readonly EstimateRow[],
  labels: readonly (number | null)[],
): { choice: PredictorChoice; predictions: number[] | null } {
  return chooseFromSources(sourceScores(rows), rows.length, labels);
}

/** The rule on any sources' scores (one per item, null where missing). */
export function chooseFromSources(
  sources: ReadonlyMap<string, (number | null)[]>,
  n: number,
  labels: readonly (number | null)[],
): { choice: PredictorChoice; predictions: number[] | null } {
  if (sources.size === 0) return { choice: NO_SOURCE, predictions: null };
  if (sources.size >= 2) {
    const keys = [...sources.keys()];
    const columns = keys.map((k) => sources.get(k)!);
    const fit = fitCombinedPredictor(
      Array.from({ length: n }, (_, i) => ({ scores: columns.map((c) => c[i]!), label: labels[i] })),
      { folds: COMBINE_FOLDS },
    );
    if (fit) {
      return {
        choice: {
          key: 'combined',
          description: `cross-fitted combination of ${keys.map(describeKey).join(' and ')} (logistic; each reviewed trajectory predicted by the fit on the other ${COMBINE_FOLDS - 1} of ${COMBINE_FOLDS} folds)`,
        },
        predictions: [...fit.predictions],
      };
    }
  }
  let best = '';
  let bestCount = -1;
  for (const [key, scores] of sources) {
    const count = scores.filter((s) => s !== null).length;
    if (count > bestCount || (count === bestCount && key === 'verifier')) [best, bestCount] = [key, count];
  }
  return { choice: { key: best, description: describeKey(best) }, predictions: filled(sources.get(best)!) };
}

export function describeKey(key: string): string {
  if (key === 'verifier') return 'the verifier (reward ≥ 1 as 1, partial reward as its share)';
  if (key.startsWith('judge:')) return `the LLM judge ${key.slice('judge:'.length)}`;
  if (key.startsWith(AGENT_SOURCE_PREFIX))
    return `the agent reviewer ${key.slice(AGENT_SOURCE_PREFIX.length)} (its reviews' verdicts, not counted as human labels)`;
  return key;
}

export interface FigureInput {
  group: string;
  groupId: string;
  rows: EstimateRow[];
}

/** A figure's estimate for one group, and its input rows (what the download writes). */
export function estimateFigure(input: FigureInput, figure: EstimateFigure): { estimate: GroupEstimate; rows: EstimateInputRow[] } {
  const labels = input.rows.map((r) => figureLabel(r, figure));
  const randomSample = !input.rows.some((r) => r.picked);
  const { choice, predictions } = choosePredictor(input.rows, labels);
  const items: PpiItem[] = input.rows.map((r, i) => ({
    prediction: predictions ? predictions[i]! : 0.5,
    label: labels[i],
    probability: r.probability,
  }));
  const result: PpiMeanResult = estimatePpiMean(items);
  return {
    estimate: toGroupEstimate(
      { group: input.group, groupId: input.groupId, figure, population: input.rows.length, randomSample },
      result,
      choice,
      predictions !== null,
    ),
    rows: input.rows.map((r, i) => ({
      item: r.trajectoryId,
      prediction: items[i]!.prediction,
      label: labels[i] ?? null,
      probability: r.probability,
      group: input.group,
    })),
  };
}

/** A group's figure from its estimate (the PPI figures only for a random sample with a predictor). */
function toGroupEstimate(
  meta: Pick<GroupEstimate, 'group' | 'groupId' | 'figure' | 'population' | 'randomSample'>,
  result: PpiMeanResult,
  choice: PredictorChoice,
  predicted: boolean,
): GroupEstimate {
  const usePpi = meta.randomSample && predicted;
  return {
    ...meta,
    labeled: result.labeled,
    design: result.design,
    human: result.human,
    ppi: usePpi ? result.ppi : null,
    effectiveLabels: usePpi ? result.effectiveLabels : null,
    predictor: meta.randomSample ? choice : { key: 'none', description: 'not a random sample: human reviews only' },
    variance: Number.isFinite(result.variance) ? result.variance : null,
    residualShare: usePpi && Number.isFinite(result.residualShare) ? result.residualShare : null,
  };
}

/**
 * groupEstimates from the groups' sums (lib/insight/queries/insight-estimate-stats.ts) instead of
 * their rows: the same figures (to rounding; lib/insight/queries/insight-estimates.db.test.ts), in
 * O(groups). Only for groups no LLM judge scored (`judged` false): their predictor is the
 * verifier (filled with its mean where a trajectory has no reward) or none, a fixed function of
 * each row; a judged group's predictor may be the cross-fitted combination, which needs its rows
 * (the caller gives those groups to groupEstimates). Groups in page order, as groupEstimates.
 */
export function groupEstimatesFromMoments(
  moments: readonly GroupMoments[],
  groups: readonly { id: string; name: string }[],
  figures: readonly EstimateFigure[] = ESTIMATE_FIGURES,
): GroupEstimate[] {
  const byId = new Map(moments.map((m) => [m.groupId, m]));
  const out: GroupEstimate[] = [];
  for (const g of groups) {
    const m = byId.get(g.id);
    if (!m) continue;
    if (m.judged) throw new Error(`groupEstimatesFromMoments: group ${g.id} was scored by a judge; estimate it from its rows`);
    for (const figure of figures) {
      const blocks = m.figures.get(figure);
      if (!blocks) continue;
      const { scored, unscored } = blocks;
      // the verifier's fill for an unscored row: its mean over the scored ones (sourceScores + filled)
      const fill = scored ? scored.sumF / scored.N : 0.5;
      const rest = unscored ? momentsAtPrediction(unscored, fill) : null;
      const all = scored && rest ? addMoments(scored, rest, m.uniform) : (scored ?? rest)!;
      const result = estimatePpiMeanFromMoments(all);
      if (result.labeled === 0) continue;
      const choice = scored ? { key: 'verifier', description: describeKey('verifier') } : NO_SOURCE;
      out.push(
        toGroupEstimate(
          { group: g.name, groupId: g.id, figure, population: all.N, randomSample: !m.picked },
          result,
          choice,
          scored !== null,
        ),
      );
    }
  }
  return out;
}

export interface EstimatesReport {
  figures: GroupEstimate[];
  pickedCampaigns: PickedCampaign[];
}

/** Every figure for every group (groups: id -> name, in page order). */
export function groupEstimates(
  rows: readonly EstimateRow[],
  groups: readonly { id: string; name: string }[],
  groupOf: (row: EstimateRow) => string | null,
  figures: readonly EstimateFigure[] = ESTIMATE_FIGURES,
): { figures: GroupEstimate[]; inputs: Map<EstimateFigure, EstimateInputRow[]> } {
  const byGroup = new Map<string, EstimateRow[]>();
  for (const r of rows) {
    const g = groupOf(r);
    if (g === null) continue;
    // appended in place: copying the group's list on every row was quadratic (100k rows in 10
    // policies: 5e8 element copies, most of groupEstimates' time and its garbage at bench scale)
    const list = byGroup.get(g);
    if (list) list.push(r);
    else byGroup.set(g, [r]);
  }
  const out: GroupEstimate[] = [];
  const inputs = new Map<EstimateFigure, EstimateInputRow[]>(figures.map((f) => [f, []]));
  for (const g of groups) {
    const groupRows = byGroup.get(g.id);
    if (!groupRows?.length) continue;
    for (const figure of figures) {
      const { estimate, rows: inputRows } = estimateFigure({ group: g.name, groupId: g.id, rows: groupRows }, figure);
      if (estimate.labeled === 0) continue;
      out.push(estimate);
      // a loop, not push(...inputRows): a spread of 100k+ arguments overflows the stack
      const into = inputs.get(figure)!;
      for (const row of inputRows) into.push(row);
    }
  }
  return { figures: out, inputs };
}

/** The figures as the API's JSON gives them (the same names `witness estimate --json` uses). */
export function estimateRowsJson(figures: readonly GroupEstimate[]) {
  return figures.map((e) => ({
    group: e.group,
    figure: e.figure,
    population: e.population,
    labeled: e.labeled,
    unlabeled: e.population - e.labeled,
    randomSample: e.randomSample,
    design: e.design,
    human: e.human,
    ppi: e.ppi,
    effective_labels: e.effectiveLabels,
    predictor: e.predictor.key,
    predictorDescription: e.predictor.description,
  }));
}

/** A figure's input rows as the CSV `witness estimate --input` reads (numbers unrounded; an empty label is unreviewed). */
export function estimateInputCsv(rows: readonly EstimateInputRow[]): string {
  return toCsv(
    ['item', 'prediction', 'label', 'probability', 'group'],
    rows.map((r) => [r.item, r.prediction, r.label, r.probability, r.group]),
  );
}

type PairRow = PairEstimateRow;

/**
 * The checkpoint comparison's win rate of B over A, human-only and prediction-powered, over the
 * pairwise items that pair the two policies' runs (lib/insight/queries/insight-estimate-rows.ts
 * pairEstimateRows). An item's label is B's share of its current comparisons (a tie half); a
 * source's prediction is (1 + score of B's run - score of A's run) / 2 (the scores as in
 * sourceScores); the same fixed predictor rule and the same weighting by the recorded
 * probabilities. Units are items here, comparisons on the page's headline rate.
 */
export function winRateEstimate(rows: readonly PairRow[], group: string): { estimate: GroupEstimate; rows: EstimateInputRow[] } | null {
  if (rows.length === 0) return null;
  const side = (s: PairRow['forB']): EstimateRow => ({
    trajectoryId: '',
    environmentId: null,
    policyId: '',
    verifierReward: s.verifierReward,
    judges: s.judges,
    probability: 1,
    picked: false,
    reviews: 0,
    passVotes: 0,
    failVotes: 0,
    rewardHacking: false,
    answerLeakage: false,
  });
  const all = sourceScores([...rows.map((r) => side(r.forB)), ...rows.map((r) => side(r.forA))]);
  const n = rows.length;
  const sources = new Map<string, (number | null)[]>();
  for (const [key, scores] of all) {
    sources.set(
      key,
      rows.map((_, i) => {
        const b = scores[i];
        const a = scores[n + i];
        return b === null || b === undefined || a === null || a === undefined ? null : (1 + b - a) / 2;
      }),
    );
  }
  for (const [key, scores] of [...sources]) if (scores.every((x) => x === null)) sources.delete(key);
  const labels = rows.map((r) => (r.comparisons > 0 ? r.bWins / r.comparisons : null));
  const randomSample = !rows.some((r) => r.picked);
  const { choice, predictions } = chooseFromSources(sources, n, labels);
  const items: PpiItem[] = rows.map((r, i) => ({
    prediction: predictions ? predictions[i]! : 0.5,
    label: labels[i],
    probability: r.probability,
  }));
  const result = estimatePpiMean(items);
  return {
    estimate: toGroupEstimate(
      { group, groupId: group, figure: 'winRate', population: n, randomSample },
      result,
      choice,
      predictions !== null,
    ),
    rows: rows.map((r, i) => ({
      item: r.itemId,
      prediction: items[i]!.prediction,
      label: labels[i] ?? null,
      probability: r.probability,
      group,
    })),
  };
}
