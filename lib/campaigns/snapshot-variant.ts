import { z } from 'zod';
import type { DashboardOptions } from '../agreement/dashboard';

/**
 * Which options a stored campaign snapshot was computed with (lib/campaigns/): the agreement
 * dashboard per audit threshold and matrix question, the
 * disagreement queue per pair of thresholds, the review plan (no options). The defaults are the
 * pages' own; a variant's key is '' at the defaults, else its options in a fixed order. The
 * dashboard's reviewer matrix is of one question (the first with two raters, or `q`): each pair
 * of reviewers' alpha over the question's units, the costliest part at 1M reviews, so another
 * question's matrix is a variant built when asked for.
 */
export const DEFAULT_AUDIT_THRESHOLD = 0.5;
export const DEFAULT_MAJORITY_CUT = 0.75;
export const DEFAULT_ORDINAL_RANGE = 2;

export const snapshotVariantSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('agreement'),
      threshold: z.number().finite(),
      q: z
        .string()
        .regex(/^[a-z0-9_.-]{1,90}$/)
        .optional(),
    })
    .strict(),
  z.object({ kind: z.literal('disagreements'), cut: z.number().gt(0).lte(1), range: z.number().int().min(1).max(20) }).strict(),
  z.object({ kind: z.literal('plan') }).strict(),
]);
export type SnapshotVariant = z.infer<typeof snapshotVariantSchema>;

export type AgreementVariant = Extract<SnapshotVariant, { kind: 'agreement' }>;
export type DisagreementsVariant = Extract<SnapshotVariant, { kind: 'disagreements' }>;

export const agreementVariant = (o: DashboardOptions): AgreementVariant => ({
  kind: 'agreement',
  threshold: o.threshold ?? DEFAULT_AUDIT_THRESHOLD,
  ...(o.matrixQuestion ? { q: o.matrixQuestion } : {}),
});

export const disagreementsVariant = (o: DashboardOptions): DisagreementsVariant => ({
  kind: 'disagreements',
  cut: o.majorityCut ?? DEFAULT_MAJORITY_CUT,
  range: o.ordinalRange ?? DEFAULT_ORDINAL_RANGE,
});

export const PLAN_VARIANT: SnapshotVariant = { kind: 'plan' };

/** The variants a campaign's labels refresh on their own (the pages' defaults). */
export function defaultVariants(mode: 'single' | 'pairwise'): SnapshotVariant[] {
  return [agreementVariant({}), disagreementsVariant({}), ...(mode === 'single' ? [PLAN_VARIANT] : [])];
}

export function variantKey(v: SnapshotVariant): string {
  if (v.kind === 'agreement')
    return [v.threshold === DEFAULT_AUDIT_THRESHOLD ? null : `threshold=${v.threshold}`, v.q ? `q=${v.q}` : null].filter(Boolean).join('&');
  if (v.kind === 'disagreements')
    return v.cut === DEFAULT_MAJORITY_CUT && v.range === DEFAULT_ORDINAL_RANGE ? '' : `cut=${v.cut}&range=${v.range}`;
  return '';
}
