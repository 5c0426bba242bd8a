import type { SessionUser } from '../auth/session-user';
import type { CanaryFigure } from './canary-schemas';
import { viewCanaryComparisons } from './view-canary-comparisons';

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
/** A run's win rates, or why they could not be computed (its row says so; the page still shows). */
export type WinRatesOrUnavailable = { winRates: WinRates; unavailable?: never } | { winRates?: never; unavailable: string };

const rateOf = (f: CanaryFigure): WinRate => ({ rate: f.estimate, ci: f.ci, n: f.n });

/**
 * The win rates vs parent (human blind, judge, prediction-powered) of runs of one project that have
 * a canary campaign, keyed by run id, from their canary comparisons read all at once
 * (lib/training/view-canary-comparisons.ts); a run whose comparison cannot be computed is
 * `unavailable`, with the reason.
 */
export async function loadWinRates(user: SessionUser, projectId: string, runIds: string[]): Promise<Map<string, WinRatesOrUnavailable>> {
  const out = new Map<string, WinRatesOrUnavailable>();
  for (const [runId, c] of await viewCanaryComparisons(user, projectId, runIds)) {
    if (!c.comparison) {
      out.set(runId, { unavailable: c.unavailable });
      continue;
    }
    const { humanWinRate, judgeWinRate, ppiWinRate, decision } = c.comparison;
    out.set(runId, {
      winRates: {
        human: rateOf(humanWinRate),
        judge: rateOf(judgeWinRate),
        ppi: rateOf(ppiWinRate),
        verdict: decision.verdict,
        sentence: decision.sentence,
      },
    });
  }
  return out;
}
