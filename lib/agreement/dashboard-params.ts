import { firstValue } from '../parse-input';
import { z } from 'zod';
import type { DashboardOptions } from './dashboard';

/** The dashboard's URL parameters (page and CSV routes read the same ones): q, threshold, cut, range (what the API contract publishes). */
export const dashboardParamsSchema = z
  .object({
    /** the question the reviewer matrix is about */
    q: z.string().regex(/^[a-z0-9_.-]{1,90}$/),
    /** reward/judge pass threshold of the audit */
    threshold: z.coerce.number().finite(),
    /** the disagreement queue's majority cut */
    cut: z.coerce.number().gt(0).lte(1),
    /** the disagreement queue's ordinal range */
    range: z.coerce.number().int().min(1).max(20),
  })
  .partial();

/** Read leniently: a repeated parameter counts once, a bad one is dropped (the defaults apply). */
const shape = dashboardParamsSchema.shape;
const lenient = z.object({
  q: z.preprocess(firstValue, shape.q.catch(undefined)),
  threshold: z.preprocess(firstValue, shape.threshold.catch(undefined)),
  cut: z.preprocess(firstValue, shape.cut.catch(undefined)),
  range: z.preprocess(firstValue, shape.range.catch(undefined)),
});

export function dashboardParams(search: Record<string, string | string[] | undefined>): DashboardOptions {
  const p = lenient.parse(search);
  return {
    ...(p.q ? { matrixQuestion: p.q } : {}),
    ...(p.threshold !== undefined ? { threshold: p.threshold } : {}),
    ...(p.cut !== undefined ? { majorityCut: p.cut } : {}),
    ...(p.range !== undefined ? { ordinalRange: p.range } : {}),
  };
}
