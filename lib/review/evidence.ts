import { z } from 'zod';
import { AppError } from '../errors';
import { formatCount } from '../video/text';

/** White space and format characters (Unicode Cf: zero-width spaces and joiners, U+2060, the BOM, bidi marks): nothing a reader sees. */
const INVISIBLE = /[\s\p{Cf}]/gu;

/** Whether a text has something a reader can see once white space and invisible format characters are taken out. */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, '').length > 0;
}

/** A note pinned to a moment of the video (and the step shown then). Clicking it seeks there. */
export const evidenceNote = z.object({
  frame: z.number().int().nonnegative(),
  stepIndex: z.number().int().nonnegative().nullable(),
  note: z
    .string()
    .trim()
    .min(1, 'an evidence note needs text')
    .max(2000)
    .refine(hasVisibleText, 'an evidence note needs text: this one is only spaces or invisible characters'),
  /** pairwise: which side the note is about (screen terms in a submit: a = left, b = right; stored in the item's A/B) */
  side: z.enum(['a', 'b']).optional(),
  /** marks the step as wrong (feeds process-reward labels) */
  wrongStep: z.boolean().default(false),
});
export const evidenceList = z.array(evidenceNote).max(200);
export type EvidenceNote = z.infer<typeof evidenceNote>;

/** What a video a note can point into has: its frames and the trajectory's steps. */
export interface EvidenceVideo {
  frames: number;
  steps: number;
}

/**
 * Checks evidence notes against the item they are about (a submit's payload step): the frame on
 * the video the reviewer watched (the campaign's pacing: [0, frames)), the step among the
 * trajectory's, and `side` only on a comparison (`videos` in screen order: [left, right]; a note
 * without a side must fit both). Throws BAD_INPUT saying which note and what, with
 * `details.field` (`evidence.2.frame`), before anything is written.
 */
export function checkEvidence(
  evidence: readonly EvidenceNote[],
  videos: readonly [EvidenceVideo] | readonly [EvidenceVideo, EvidenceVideo],
): void {
  const pairwise = videos.length === 2;
  evidence.forEach((e, i) => {
    const where = (field: string) => `evidence.${i}.${field}`;
    const refuse = (field: string, what: string): never => {
      throw new AppError('BAD_INPUT', `${where(field)}: ${what}`, { details: { field: where(field) } });
    };
    if (e.side !== undefined && !pairwise) refuse('side', `"${e.side}": a single-item review has one video; side is only for comparisons`);
    const on: { video: EvidenceVideo; name: string; run: string }[] = !pairwise
      ? [{ video: videos[0], name: 'the video', run: 'the trajectory' }]
      : [
          { video: videos[0], name: 'the left video', run: 'the left run', side: 'a' },
          { video: videos[1]!, name: 'the right video', run: 'the right run', side: 'b' },
        ].filter((v) => e.side === undefined || v.side === e.side);
    for (const { video, name, run } of on) {
      if (e.frame >= video.frames)
        refuse(
          'frame',
          video.frames > 0
            ? `${formatCount(e.frame)} is past ${name}'s last frame ${formatCount(video.frames - 1)}`
            : `${formatCount(e.frame)}: ${name} has no frames`,
        );
      if (e.stepIndex !== null && e.stepIndex >= video.steps)
        refuse(
          'stepIndex',
          `${formatCount(e.stepIndex)} is past the last step: ${run} has ${formatCount(video.steps)} (indexes 0 to ${formatCount(video.steps - 1)})`,
        );
    }
  });
}
