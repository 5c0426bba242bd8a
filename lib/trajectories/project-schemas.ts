import { z } from 'zod';

/** A project's name in URLs, flags and query parameters: parsed at every edge before a project is looked up or made. */
export const projectSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'project names are lowercase letters, digits and dashes');

export const projectSettingsSchema = z.object({
  /** render a video for each new trajectory after import */
  autoRender: z.boolean().default(true),
  /**
   * whether someone may review items whose trajectories they uploaded (through the API); off by default:
   * the claim never hands them out and a submit on one is refused; on, each such review is audited (`review.self`)
   */
  allowSelfReview: z.boolean().default(false),
  /** open a blind canary campaign (new checkpoint vs its parent) when both have trajectories on the same tasks (lib/training/open-canary-campaign.ts) */
  canary: z.boolean().default(true),
  /** the lead's rule for a canary: promote when the figure's 95% lower bound is above `above`, reject when its upper bound is below (lib/training/canary-decision.ts) */
  canaryRule: z
    .object({
      figure: z.enum(['human', 'ppi', 'judge']).default('ppi'),
      above: z.number().min(0).max(1).default(0.5),
    })
    .default({ figure: 'ppi', above: 0.5 }),
});
export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

/** A project's stored settings (absent or partial: the defaults fill in). */
export function parseProjectSettings(stored: unknown): ProjectSettings {
  return projectSettingsSchema.parse(stored ?? {});
}
