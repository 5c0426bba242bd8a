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

type Leaderboard = BradleyTerryResult & { bootstrapRounds: number };

/**
 * The leaderboard is a pure function of its rows (in their order) and the seed, and its bootstrap
 * is most of the policies and compare pages' own work (~20 ms a view at demo scale): the last
 * results are kept, keyed by their input, and handed out frozen (every caller only reads them).
 */
const memo = new Map<string, Leaderboard>();
const MEMO_SIZE = 32;

export function leaderboard(rows: readonly OutcomeCount[], seed = 1): Leaderboard {
  const key = `${seed}\n${JSON.stringify(rows.map((r) => [r.policyA, r.policyB, r.outcome, r.count]))}`;
  const hit = memo.get(key);
  if (hit) {
    memo.delete(key);
    memo.set(key, hit); // most recently used last
    return hit;
  }
  const result = deepFreeze(computeLeaderboard(rows, seed));
  memo.set(key, result);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return result;
}

function deepFreeze<T>(value: T): T {
  // (a typed array cannot be frozen: none is in the result, and one would be left as it is)
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function computeLeaderboard(rows: readonly OutcomeCount[], seed: number): Leaderboard {
  const battles: Battle[] = [];
  for (const r of rows) {
    if (r.policyA === r.policyB || r.count <= 0) continue;
    const winner = r.outcome === 'a' ? 'model_a' : r.outcome === 'b' ? 'model_b' : 'tie';
    const battle: Battle = { model_a: r.policyA, model_b: r.policyB, winner };
    for (let i = 0; i < r.count; i++) battles.push(battle);
  }
  return { ...bradleyTerryRatings(battles, { bootstrap: BOOTSTRAP_ROUNDS, seed }), bootstrapRounds: BOOTSTRAP_ROUNDS };
}
