import { z } from 'zod';
import { firstValue } from '../parse-input';
import { ESTIMATE_FIGURES } from './estimates';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { parseInput } from '../parse-input';

/** The insight pages' and API's query parameters (view-environment-insight.ts, view-policy-insight.ts, view-compare-insight.ts). */
export const insightQuery = z.object({
  project: projectSlugSchema.optional(),
  env: z.string().trim().min(1).max(120).optional(),
  a: z.string().trim().min(1).max(300).optional(),
  b: z.string().trim().min(1).max(300).optional(),
  /** csv: the table; estimate: a prediction-powered figure's input rows (item, prediction, label, probability, group) for `witness estimate` */
  format: z.enum(['json', 'csv', 'estimate']).default('json'),
  figure: z.enum(ESTIMATE_FIGURES).default('reviewerPass'),
});
export type InsightQuery = z.infer<typeof insightQuery>;

/**
 * A page's search parameters or a URL's query (first value of each; empty ones left out), BAD_INPUT naming the parameter.
 * `environment` is read as `env` (the trajectory list's name for it), so `?environment=physics-derivations` filters
 * (or is refused by name) rather than being ignored.
 */
export function parseInsightQuery(params: Record<string, string | string[] | undefined>): InsightQuery {
  const flat: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(params)
      .map(([k, v]) => [k, firstValue(v)])
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  if (flat.env === undefined && flat.environment !== undefined) flat.env = flat.environment;
  delete flat.environment;
  return parseInput(insightQuery, flat, 'query parameter');
}
