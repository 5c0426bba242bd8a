import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TrajectoryVideoProps } from '@/lib/video/schema';
import { OmittedSteps } from './omitted-steps';

describe('OmittedSteps (issue 39, row 6)', () => {
  it('says which steps a bounded video leaves out, counted from 1, and sends the reader to the transcript', () => {
    const video = {
      header: { stepCount: 100_000 },
      omittedSteps: [
        { fromStep: 2, toStep: 1_665, atFrame: 300 },
        { fromStep: 1_667, toStep: 1_667, atFrame: 400 },
        { fromStep: 1_669, toStep: 3_332, atFrame: 500 },
        { fromStep: 3_334, toStep: 99_997, atFrame: 600 },
      ],
    } as unknown as TrajectoryVideoProps;
    expect(renderToStaticMarkup(createElement(OmittedSteps, { video }))).toBe(
      '<p class="mt-2 text-[11px] text-zinc-500" data-testid="omitted-steps">This video shows 7 of 100,000 steps. Steps 3-1,666, 1,668, 1,670-3,333 and 1 more range are not in the video: read them in the transcript.</p>',
    );
  });
});
