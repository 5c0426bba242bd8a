import type { Battle } from '../stats/battles';
import { bradleyTerryRatings, type BradleyTerryResult } from '../stats/bradley-terry';
import type { PairOutcome } from './win-rate';

/**
 * Bradley-Terry leaderboard (lib/stats/bradley-terry: Elo scale, mean 1000, bootstrap 95% CIs)
 * from comparison counts aggregated in SQL: one row per (policy of A, policy of B, outcome).
 * Outcome "tie" includes "both bad" (LMArena's "tie (bothbad)"; the fit counts both as halves).
 * 1,000 bootstrap rounds at any number of comparisons (a round resamples the cells, not each battle).
 */
export interface OutcomeCount {
  policyA: string;
  policyB: string;
  outcome: PairOutcome;
  count: number;
}

export const BOOTSTRAP_ROUNDS = 1000;

export function leaderboard(rows: readonly OutcomeCount[], seed = 1): BradleyTerryResult & { bootstrapRounds: number } {
  const battles: Battle[] = [];
  for (const r of rows) {
    if (r.policyA === r.policyB || r.count <= 0) continue;
    const winner = r.outcome === 'a' ? 'model_a' : r.outcome === 'b' ? 'model_b' : 'tie';
    const battle: Battle = { model_a: r.policyA, model_b: r.policyB, winner };
    for (let i = 0; i < r.count; i++) battles.push(battle);
  }
  return { ...bradleyTerryRatings(battles, { bootstrap: BOOTSTRAP_ROUNDS, seed }), bootstrapRounds: BOOTSTRAP_ROUNDS };
}
