import { z } from 'zod';
import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { VIDEO_FPS } from '../video/schema';
import { videoMeasureFor } from '../video/video-props-for';
import { admitProgress, earnedOf, type EarnedRun } from './attention';
import { readAssignmentTrajectories } from './read-assignment-trajectories';
import { coverageReport } from './coverage';
import { updateProgress } from './queries/review-progress';

export const saveReviewProgressInput = z.object({
  assignmentId: z.string().min(1).max(64),
  /** each run's coverage so far, in screen order (one for a single review; left, right for a comparison) */
  runs: z.array(coverageReport).min(1).max(2),
});
export type SaveReviewProgressInput = z.input<typeof saveReviewProgressInput>;

export interface SavedProgress {
  /** what the server keeps for each run (screen order): a reload starts from this */
  runs: { ranges: [number, number][]; transcriptSteps: number[] }[];
  /** steps and frames this save reported that the time since the last save could not hold (not kept) */
  dropped: { steps: number; frames: number };
}

/**
 * Keeps a reviewer's coverage as they go (the review and compare pages save every few seconds
 * and when the tab is hidden), per assignment, so a reload or a crash costs them nothing: the
 * page starts from what was kept (lib/review/view-assignment.ts `earned`), and the submit counts
 * it (lib/review/submit-review.ts). Each save adds only what the time since the last one (or the
 * claim) could hold (lib/review/attention.ts admitProgress). Only the reviewer's own live claim.
 */
export async function saveReviewProgress(
  user: { id: string; access: ProjectAccess },
  raw: SaveReviewProgressInput,
  now: Date,
): Promise<SavedProgress> {
  const input = parseInput(saveReviewProgressInput, raw, '');
  // the videos' measures first, outside the row lock (a measure not stored yet is derived and stored: not under a lock)
  const { ids: screen, pacing, blind } = await readAssignmentTrajectories(input.assignmentId, user.id);
  const measures = await Promise.all(screen.map((id) => videoMeasureFor(id, pacing, blind)));
  return updateProgress(input.assignmentId, async (target) => {
    if (!target || target.reviewerId !== user.id) throw new AppError('NOT_FOUND', 'No such assignment');
    requireProjectRole(user.access, target.projectId, 'reviewer', 'assignment');
    if (input.runs.length !== screen.length)
      throw new AppError('BAD_INPUT', `runs: this assignment shows ${screen.length} run(s), the save sent ${input.runs.length}`);
    if (target.status !== 'claimed' && target.status !== 'submitted')
      throw new AppError('CONFLICT', `This assignment is ${target.status}: claim the item again to go on`);
    const stored = (typeof target.progress === 'object' && target.progress !== null ? target.progress : {}) as Record<string, unknown>;
    const next: Record<string, EarnedRun> = {};
    const runs: SavedProgress['runs'] = [];
    const dropped = { steps: 0, frames: 0 };
    for (const [i, trajectoryId] of screen.entries()) {
      const prev = earnedOf(stored, trajectoryId);
      const since = prev?.savedAt ? new Date(prev.savedAt) : target.claimedAt;
      const admitted = admitProgress(prev, input.runs[i]!, measures[i]!, {
        wpm: target.readingWpm,
        fps: VIDEO_FPS,
        elapsedSeconds: (now.getTime() - since.getTime()) / 1000,
        now: now.toISOString(),
      });
      next[trajectoryId] = admitted.run;
      runs.push({ ranges: admitted.run.ranges, transcriptSteps: admitted.run.transcriptSteps });
      dropped.steps += admitted.droppedSteps;
      dropped.frames += admitted.droppedFrames;
    }
    return { progress: { ...stored, ...next }, answer: { runs, dropped } };
  });
}
