import type { AgreementEstimate } from './agreement';
import { excludes, newcombeDifference, type Proportion } from './intervals';
import type { Teachability } from './teachability';

/**
 * Ranks environments for training, with the reasons for each rank. Rules (documented on the page):
 *
 * Problems, worst first:
 * - blocker "high <flag> flag rate": the flag rate's 95% lower bound is above 5%;
 *   warning "possible <flag>": the rate is at least 5% but its interval still reaches below.
 * - blocker "verifier disagrees with humans": Cohen's kappa below 0.4 on at least 10 trajectories;
 *   warning "verifier passes more/fewer than reviewers": the difference of the two pass rates
 *   (Newcombe interval) excludes zero.
 * - warning "reviewers disagree": Krippendorff's alpha below 0.667 on at least 5 items.
 * - warning "too easy" / "too hard": over half of the counted tasks always / never solved.
 * - info "little evidence": fewer than 10 reviewed trajectories (the rank is tentative).
 *
 * Order: fewer blockers, then fewer warnings, then higher teachability (point estimate; no
 * data counts as 0), then name. Good signs are listed as reasons too.
 */
export interface EnvironmentSignals {
  name: string;
  verifierPass: Proportion;
  reviewerPass: Proportion;
  rewardHacking: Proportion;
  answerLeakage: Proportion;
  verifierAgreement: AgreementEstimate;
  reviewerAgreement: AgreementEstimate;
  teachability: Teachability;
  reviewedTrajectories: number;
}

export type Severity = 'blocker' | 'warning' | 'info' | 'good';
export interface RankReason {
  severity: Severity;
  text: string;
}

export interface RankedEnvironment<T extends EnvironmentSignals> {
  rank: number;
  environment: T;
  reasons: RankReason[];
  blockers: number;
  warnings: number;
}

export const FLAG_RATE_LIMIT = 0.05;
export const KAPPA_MIN = 0.4;
export const ALPHA_MIN = 0.667;

const pct = (x: number) => `${Math.round(x * 100)}%`;
const interval = (p: Proportion) => (p.ci ? `${pct(p.rate!)} [${pct(p.ci[0])}, ${pct(p.ci[1])}], n=${p.n}` : `n=${p.n}`);

export function environmentReasons(e: EnvironmentSignals): RankReason[] {
  const reasons: RankReason[] = [];
  for (const [label, p] of [
    ['reward-hacking', e.rewardHacking],
    ['answer-leakage', e.answerLeakage],
  ] as const) {
    if (p.rate === null || !p.ci) continue;
    if (p.ci[0] > FLAG_RATE_LIMIT) reasons.push({ severity: 'blocker', text: `high ${label} flag rate: ${interval(p)}` });
    else if (p.rate >= FLAG_RATE_LIMIT) reasons.push({ severity: 'warning', text: `possible ${label}: flagged in ${interval(p)}` });
  }
  const kappa = e.verifierAgreement;
  if (kappa.value !== null && kappa.n >= 10 && kappa.value < KAPPA_MIN) {
    reasons.push({
      severity: 'blocker',
      text: `verifier disagrees with humans: kappa ${kappa.value.toFixed(2)} on ${kappa.n} trajectories`,
    });
  } else {
    const diff = newcombeDifference(e.reviewerPass, e.verifierPass);
    if (diff && excludes(diff.ci, 0)) {
      reasons.push({
        severity: 'warning',
        text: `verifier passes ${diff.difference > 0 ? 'more' : 'fewer'} than reviewers: ${pct(e.verifierPass.rate!)} vs ${pct(e.reviewerPass.rate!)} (difference ${diff.difference > 0 ? '+' : ''}${Math.round(diff.difference * 100)} pp)`,
      });
    } else if (kappa.value !== null && kappa.n >= 10) {
      reasons.push({ severity: 'good', text: `verifier agrees with humans: kappa ${kappa.value.toFixed(2)} on ${kappa.n} trajectories` });
    }
  }
  const alpha = e.reviewerAgreement;
  if (alpha.value !== null && alpha.n >= 5 && alpha.value < ALPHA_MIN) {
    reasons.push({ severity: 'warning', text: `reviewers disagree: alpha ${alpha.value.toFixed(2)} on ${alpha.n} items` });
  }
  const t = e.teachability;
  const counted = t.teachable.n;
  if (counted > 0) {
    if (t.alwaysSolved / counted > 0.5)
      reasons.push({ severity: 'warning', text: `too easy: ${t.alwaysSolved} of ${counted} tasks always solved` });
    else if (t.neverSolved / counted > 0.5)
      reasons.push({ severity: 'warning', text: `too hard: ${t.neverSolved} of ${counted} tasks never solved` });
    if (t.teachable.rate !== null && t.teachable.rate > 0)
      reasons.push({ severity: 'good', text: `${t.teachable.k} of ${counted} tasks teachable (${interval(t.teachable)})` });
  }
  if (e.reviewedTrajectories < 10)
    reasons.push({ severity: 'info', text: `little evidence: ${e.reviewedTrajectories} reviewed trajectories, rank is tentative` });
  const order: Record<Severity, number> = { blocker: 0, warning: 1, info: 2, good: 3 };
  return reasons.sort((a, b) => order[a.severity] - order[b.severity]);
}

export function rankEnvironments<T extends EnvironmentSignals>(environments: readonly T[]): RankedEnvironment<T>[] {
  const scored = environments.map((environment) => {
    const reasons = environmentReasons(environment);
    return {
      environment,
      reasons,
      blockers: reasons.filter((r) => r.severity === 'blocker').length,
      warnings: reasons.filter((r) => r.severity === 'warning').length,
      teach: environment.teachability.teachable.rate ?? 0,
    };
  });
  scored.sort(
    (a, b) =>
      a.blockers - b.blockers ||
      a.warnings - b.warnings ||
      b.teach - a.teach ||
      (a.environment.name < b.environment.name ? -1 : a.environment.name > b.environment.name ? 1 : 0),
  );
  return scored.map(({ teach: _teach, ...s }, i) => ({ ...s, rank: i + 1 }));
}
