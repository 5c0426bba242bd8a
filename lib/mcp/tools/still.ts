import { z } from 'zod';
import { AppError } from '../../errors';
import { recordAgentReading } from '../../review/record-agent-reading';
import { VIDEO_FPS } from '../../video/schema';
import { viewBlindTranscript } from '../../video/view-blind-transcript';
import { defineTool } from '../mcp-tool';
import { blindReadInput } from './transcript';

/**
 * A moment of a trajectory's video: where a step plays (or what plays at a time), a link to a PNG
 * still of it cut from the rendered MP4 (GET /api/mcp/stills/ID, lib/video/extract-still.ts),
 * and a share link to the trajectory page at that frame (?frame=N). The rendered MP4 names the
 * policy and the reward: under a campaign that hides them (an agent's claim, by default) no still
 * link is given, only the step's place, and the answer says why.
 */
export const getStillTool = defineTool({
  name: 'get_still',
  title: 'A video still and share link',
  description:
    "Where a step plays in the trajectory's proof-of-work video (or what plays at timeSec): the frame and time, the URL of a PNG still of that moment (GET it with the same bearer token; 409 while no video is rendered yet) and a share link to the trajectory page at that moment. Give step or timeSec. Under a campaign whose blind settings hide the policy or reward, no still URL (the rendered video shows them): read the transcript instead. With a claimId the fetch is recorded on your claim.",
  input: z
    .object({
      ...blindReadInput,
      step: z.number().int().min(0).optional().describe('the step (0-based)'),
      timeSec: z.number().min(0).max(86_400).optional().describe('seconds into the video'),
    })
    .refine((i) => (i.step === undefined) !== (i.timeSec === undefined), { message: 'give step or timeSec (one of them)', path: ['step'] }),
  kind: 'read',
  area: 'review',
  async run(input, { user, baseUrl }) {
    const { measure, blind, pacing } = await viewBlindTranscript(user, input);
    const chapters = measure.chapters;
    let frame: number;
    let step: number | null;
    if (input.step !== undefined) {
      const last = measure.steps.length ? Math.max(...measure.steps) : null;
      // a skimmed video gives some steps no card of their own: the card that plays before it shows where it is
      const chapter =
        last !== null && input.step <= last
          ? (chapters.find((c) => c.step === input.step) ?? chapters.filter((c) => c.step <= input.step!).at(-1) ?? chapters[0])
          : undefined;
      if (!chapter) {
        throw new AppError(
          'BAD_INPUT',
          `/step: step ${input.step} has no place in the video${last !== null ? ` (its steps run 0–${last})` : ''}`,
          {
            details: { field: '/step' },
          },
        );
      }
      // a moment into the step's card, where its text is on screen
      frame = Math.min(chapter.toFrame - 1, chapter.fromFrame + Math.round(VIDEO_FPS / 2));
      step = input.step;
    } else {
      frame = Math.min(Math.round(input.timeSec! * VIDEO_FPS), Math.max(0, measure.totalFrames - 1));
      step = chapters.find((c) => frame >= c.fromFrame && frame < c.toFrame)?.step ?? null;
    }
    if (input.claimId !== undefined)
      await recordAgentReading(user, {
        claimId: input.claimId,
        trajectoryId: input.trajectoryId,
        still: input.step !== undefined ? { step: input.step } : { timeSec: input.timeSec! },
      });
    const hidden = blind.hidePolicy || blind.hideReward;
    const blindRead = input.claimId !== undefined || input.campaignId !== undefined;
    const id = encodeURIComponent(input.trajectoryId);
    return {
      trajectoryId: input.trajectoryId,
      step,
      frame,
      timeSec: Math.round((frame / VIDEO_FPS) * 1000) / 1000,
      pacing,
      ...(blindRead && hidden
        ? {
            stillUrl: null,
            shareUrl: null,
            note: 'the rendered video shows the policy and reward this campaign hides: read this step with read_transcript',
          }
        : {
            stillUrl: `${baseUrl}/api/mcp/stills/${id}?frame=${frame}&pacing=${pacing}`,
            shareUrl: `${baseUrl}/trajectories/${id}?frame=${frame}`,
          }),
    };
  },
});
