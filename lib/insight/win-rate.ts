import { excludes, wilson, type Proportion } from './intervals';
import { comparisonsNeeded, moreNeeded } from './power';

/**
 * B's win rate over A from pairwise comparisons between them. A comparison's preference
 * (-2 A much better .. +2 B much better) becomes a win for B (> 0), a win for A (< 0) or a tie
 * (0); "both bad" is a tie whatever the preference. Win rate = (B wins + ties / 2) / n.
 *
 * Interval: Wilson on the effective count (B wins + ties / 2) out of n. With many ties this is
 * conservative (a tie carries less variance than a coin flip), never too narrow.
 * Distinguishable from noise: the interval excludes 0.5. "More needed": the power calculation
 * in power.ts at the observed rate, minus the comparisons in hand.
 */
export interface PairTally {
  bWins: number;
  aWins: number;
  ties: number;
}

export interface WinRate extends Proportion, PairTally {
  distinguishable: boolean;
  /** comparisons a test at alpha 0.05 with power 0.8 needs at the observed rate (null: no difference observed) */
  needed: number | null;
  /** needed minus those in hand */
  more: number | null;
}

export type PairOutcome = 'a' | 'b' | 'tie';

export function outcomeOf(preference: number, bothBad: boolean): PairOutcome {
  if (bothBad || preference === 0) return 'tie';
  return preference > 0 ? 'b' : 'a';
}

export function winRate(t: PairTally): WinRate {
  const n = t.bWins + t.aWins + t.ties;
  const p = wilson(t.bWins + t.ties / 2, n);
  const needed = p.rate === null ? null : comparisonsNeeded(p.rate);
  return { ...p, ...t, distinguishable: excludes(p.ci, 0.5), needed, more: moreNeeded(needed, n) };
}
