import { formatCount } from '@/lib/video/text';
import type { TrajectoryVideoProps } from '@/lib/video/schema';
import { stepNumber } from '../ui/format';

/** A bounded video (a run longer than its pacing allows, lib/video/pacing.ts) says which steps it leaves out: the transcript has them. */
export function OmittedSteps({ video }: { video: TrajectoryVideoProps }) {
  const ranges = video.omittedSteps ?? [];
  const left = ranges.reduce((n, r) => n + r.toStep - r.fromStep + 1, 0);
  const shown = ranges
    .slice(0, 3)
    .map((r) =>
      r.fromStep === r.toStep
        ? formatCount(stepNumber(r.fromStep))
        : `${formatCount(stepNumber(r.fromStep))}-${formatCount(stepNumber(r.toStep))}`,
    );
  return (
    <p className="mt-2 text-[11px] text-zinc-500" data-testid="omitted-steps">
      This video shows {formatCount(video.header.stepCount - left)} of {formatCount(video.header.stepCount)} steps. Steps {shown.join(', ')}
      {ranges.length > 3 ? ` and ${formatCount(ranges.length - 3)} more range${ranges.length - 3 === 1 ? '' : 's'}` : ''} are not in the
      video: read them in the transcript.
    </p>
  );
}
