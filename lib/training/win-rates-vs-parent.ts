import type { SessionUser } from '../auth/session-user';
import type { CanaryFigure } from './canary-schemas';
import { viewCanaryComparison } from './view-canary-comparison';

/** A win rate of a checkpoint vs its parent: the estimate, its 95% interval and n (rate and interval null when there is no data). */
export interface WinRate {
  rate: number | null;
  ci: [number, number] | null;
  n: number;
}
export interface WinRates {
  human: WinRate;
  judge: WinRate;
  ppi: WinRate;
  /** the canary rule's verdict for this checkpoint */
  verdict: 'promote' | 'reject' | 'hold';
  sentence: string;
}

const rateOf = (f: CanaryFigure): WinRate => ({ rate: f.estimate, ci: f.ci, n: f.n });

/**
 * The win rates vs parent (human blind, judge, prediction-powered) of the runs that have a canary
 * campaign, keyed by run id, from each run's canary comparison (lib/training/view-canary-comparison.ts).
 */
export async function loadWinRates(user: SessionUser, runIds: string[]): Promise<Map<string, WinRates>> {
  const out = new Map<string, WinRates>();
  const comparisons = await Promise.all(runIds.map((id) => viewCanaryComparison(user, id)));
  for (const c of comparisons)
    out.set(c.runId, {
      human: rateOf(c.humanWinRate),
      judge: rateOf(c.judgeWinRate),
      ppi: rateOf(c.ppiWinRate),
      verdict: c.decision.verdict,
      sentence: c.decision.sentence,
    });
  return out;
}
