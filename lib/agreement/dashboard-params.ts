import { z } from 'zod';
import type { DashboardOptions } from './dashboard';

/** The dashboard's URL parameters (page and CSV routes read the same ones): q, threshold, cut, range. */
const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const schema = z.object({
  q: z.preprocess(
    one,
    z
      .string()
      .regex(/^[a-z0-9_.-]{1,90}$/)
      .optional()
      .catch(undefined),
  ),
  threshold: z.preprocess(one, z.coerce.number().finite().optional().catch(undefined)),
  cut: z.preprocess(one, z.coerce.number().gt(0).lte(1).optional().catch(undefined)),
  range: z.preprocess(one, z.coerce.number().int().min(1).max(20).optional().catch(undefined)),
});

export function dashboardParams(search: Record<string, string | string[] | undefined>): DashboardOptions {
  const p = schema.parse(search);
  return {
    ...(p.q ? { matrixQuestion: p.q } : {}),
    ...(p.threshold !== undefined ? { threshold: p.threshold } : {}),
    ...(p.cut !== undefined ? { majorityCut: p.cut } : {}),
    ...(p.range !== undefined ? { ordinalRange: p.range } : {}),
  };
}
