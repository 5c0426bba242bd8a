import { z } from 'zod';

/** A note pinned to a moment of the video (and the step shown then). Clicking it seeks there. */
export const evidenceNote = z.object({
  frame: z.number().int().nonnegative(),
  stepIndex: z.number().int().nonnegative().nullable(),
  note: z.string().trim().min(1, 'an evidence note needs text').max(2000),
  /** pairwise: which side the note is about */
  side: z.enum(['a', 'b']).optional(),
  /** marks the step as wrong (feeds process-reward labels) */
  wrongStep: z.boolean().default(false),
});
export const evidenceList = z.array(evidenceNote).max(200);
export type EvidenceNote = z.infer<typeof evidenceNote>;
