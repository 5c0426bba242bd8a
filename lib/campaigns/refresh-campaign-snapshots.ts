import { agreementDashboard, type AgreementDashboard } from '../agreement/dashboard';
import type { Disagreement } from '../agreement/disagreements';
import { loadAgreementData } from '../agreement/queries/agreement-data';
import { campaignPlanFacts } from './queries/campaign-sampling-data';
import { findSnapshotClock, inConsistentRead, labelClock, sameClock, storeSnapshot, type LabelClock } from './queries/campaign-snapshots';
import { AppError } from '../errors';
import { planCampaignReview } from './plan-campaign-review';
import { defaultVariants, variantKey, type SnapshotVariant } from './snapshot-variant';

/** What an `agreement` snapshot holds: the dashboard as the page shows it and the queue's length (its rows are a `disagreements` snapshot). */
export type AgreementSnapshotPayload = Omit<AgreementDashboard, 'items' | 'disagreements'> & { disagreementCount: number };

/** What a `disagreements` snapshot holds beside its rows. */
export interface DisagreementsSnapshotPayload {
  count: number;
  cut: number;
  range: number;
}

/** What a `plan` snapshot holds: the campaign page's review plan (null: none, e.g. no items). */
export interface PlanSnapshotPayload {
  plan: Awaited<ReturnType<typeof planCampaignReview>>;
}

/** Bootstrap resamples of the agreement figures (the dashboard's default). */
const REPLICATES = 1000;

/** The dashboard as an `agreement` snapshot stores it (the items map and the queue's rows left out). */
export function agreementPayload(d: AgreementDashboard): AgreementSnapshotPayload {
  const { items: _items, disagreements, ...rest } = d;
  return { ...rest, disagreementCount: disagreements.length };
}

/** A queue as a `disagreements` snapshot stores its rows, worst first. */
export const disagreementRows = (queue: readonly Disagreement[]) =>
  queue.map((q) => ({ itemId: q.itemId, reviews: q.reviews, splits: q.splits }));

/**
 * Builds and stores a campaign's snapshots: `variant`, or its default ones (agreement,
 * disagreements and, single-item campaigns, the plan). The agreement data is read in one
 * REPEATABLE READ transaction together with the label clock, so a snapshot's "as of" is exactly
 * what it was computed from; the plan reads the clock first (a review landing during the
 * computation leaves the snapshot marked stale, never the reverse). Snapshots already at the
 * clock are left alone (the job is idempotent). Answers what it wrote and skipped.
 */
export async function refreshCampaignSnapshots(
  campaignId: string,
  variant?: SnapshotVariant,
  now: () => Date = () => new Date(),
): Promise<{ written: string[]; skipped: string[] }> {
  const facts = await campaignPlanFacts(campaignId);
  if (!facts) throw new AppError('NOT_FOUND', 'No such campaign');
  const wanted = variant ? [variant] : defaultVariants(facts.mode);
  const clock = await labelClock(campaignId);
  const name = (v: SnapshotVariant) => `${v.kind}${variantKey(v) ? `?${variantKey(v)}` : ''}`;
  const todo: SnapshotVariant[] = [];
  const skipped: string[] = [];
  for (const v of wanted) {
    const stored = await findSnapshotClock(campaignId, v.kind, variantKey(v));
    if (stored && sameClock(stored, clock)) skipped.push(name(v));
    else todo.push(v);
  }
  const written: string[] = [];
  /** computeMs: what building it again costs (its share of the data read plus its own computation) */
  const store = async (
    v: SnapshotVariant,
    at: LabelClock,
    reviews: number,
    payload: unknown,
    computeMs: number,
    rows?: ReturnType<typeof disagreementRows>,
  ) => {
    const ok = await storeSnapshot({
      campaignId,
      kind: v.kind,
      variant: variantKey(v),
      clock: at,
      reviews,
      payload,
      computeMs,
      builtAt: now(),
      rows,
    });
    (ok ? written : skipped).push(name(v));
  };

  const fromData = todo.filter((v) => v.kind !== 'plan');
  if (fromData.length) {
    const t0 = performance.now();
    const { data, at } = await inConsistentRead(async (run) => {
      const at = await labelClock(campaignId, run);
      return { at, data: await loadAgreementData(campaignId, run) };
    });
    if (!data) throw new AppError('NOT_FOUND', 'No such campaign');
    const loadMs = performance.now() - t0;
    const reviews = data.reviews.length + data.comparisons.length;
    for (const v of fromData) {
      const t1 = performance.now();
      if (v.kind === 'agreement') {
        const d = agreementDashboard(data, { threshold: v.threshold, matrixQuestion: v.q, replicates: REPLICATES });
        await store(v, at, reviews, agreementPayload(d), loadMs + performance.now() - t1);
      } else if (v.kind === 'disagreements') {
        const d = agreementDashboard(data, { majorityCut: v.cut, ordinalRange: v.range, parts: ['disagreements'] });
        const payload: DisagreementsSnapshotPayload = { count: d.disagreements.length, cut: v.cut, range: v.range };
        await store(v, at, reviews, payload, loadMs + performance.now() - t1, disagreementRows(d.disagreements));
      }
    }
  }
  const plan = todo.find((v) => v.kind === 'plan');
  if (plan) {
    const t0 = performance.now();
    const at = await labelClock(campaignId);
    const payload: PlanSnapshotPayload = { plan: await planCampaignReview(campaignId) };
    // a plan's "as of": the reviewed items it was computed from (the count its panel says, reviews in any campaign of the project)
    await store(plan, at, payload.plan?.labeled ?? facts.reviewed, payload, performance.now() - t0);
  }
  return { written, skipped };
}
