import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import type { Step, Trajectory } from '../formats/trajectory';
import { planChunks, MAX_CHUNKS } from './chunks';
import { VIDEO_MAX_SECONDS, VIDEO_SELECTION_SECONDS, type Pacing } from './pacing';
import { trajectoryVideoProps } from './props';
import { trajectoryVideoSchema, type TrajectoryVideoProps } from './schema';

/* Issue 39, row 6: a video per pacing is bounded whatever the run's length; the steps left out are listed for the transcript. */

function step(index: number): Step {
  const call = index % 3 === 0;
  return {
    index,
    source: index % 2 ? 'agent' : 'user',
    text: `step ${index} ${'word '.repeat(index % 7 === 0 ? 80 : 5)}`,
    reasoning: null,
    toolCalls: call ? [{ id: `c${index}`, name: 'bash', arguments: { command: 'ls -la' } }] : [],
    observations: call ? [{ toolCallId: `c${index}`, content: 'a\nb\nc', isError: index === 31_338 }] : [],
    timestamp: null,
    castTime: null,
    usage: null,
  };
}

function run(steps: number): Trajectory {
  return {
    ...buildTrajectory({ format: 'atif', task: { name: 'task', instruction: 'Do the thing.' }, policy: { model: 'm', agent: 'a' } }),
    steps: Array.from({ length: steps }, (_, i) => step(i)),
  };
}

/** every step is either a chapter of the video or inside exactly one omitted range, in order */
function accountedFor(p: TrajectoryVideoProps, steps: number): void {
  const seen = new Uint8Array(steps);
  for (const c of p.chapters) seen[c.step]! += 1;
  for (const r of p.omittedSteps ?? []) {
    expect(r.toStep).toBeGreaterThanOrEqual(r.fromStep);
    for (let i = r.fromStep; i <= r.toStep; i++) seen[i]! += 1;
  }
  expect(seen.every((n) => n === 1)).toBe(true);
}

describe('bounded video (issue 39, row 6)', () => {
  const long = run(100_000);
  for (const pacing of ['skim', 'read'] as Pacing[]) {
    it(`a 100,000-step run's ${pacing} video fits in ${VIDEO_SELECTION_SECONDS[pacing]} s; the other steps are listed for the transcript`, () => {
      const p = trajectoryVideoProps(long, { pacing });
      expect(() => trajectoryVideoSchema.parse(p)).not.toThrow();
      expect(p.durationInFrames).toBeLessThanOrEqual(VIDEO_SELECTION_SECONDS[pacing] * p.fps);
      expect(p.chapters.length).toBeGreaterThan(10);
      expect(p.header.stepCount).toBe(100_000);
      accountedFor(p, 100_000);
      const shown = p.chapters.map((c) => c.step);
      expect(shown).toEqual(expect.arrayContaining([0, 1, 99_998, 99_999, 31_338])); // first, last, the error
      // each gap sits at the frame of the next step shown
      for (const r of p.omittedSteps!) {
        const next = p.chapters.find((c) => c.step > r.toStep);
        expect(r.atFrame).toBe(next ? next.fromFrame : p.scenes[p.scenes.length - 1]!.from);
      }
      // and its render is a bounded number of chunks
      expect(planChunks(p.durationInFrames, { workers: 2 }).length).toBeLessThanOrEqual(MAX_CHUNKS);
    }, 30_000);
  }

  it('a run that fits is the whole run, with no omitted steps', () => {
    for (const pacing of ['skim', 'read'] as Pacing[]) {
      const p = trajectoryVideoProps(run(20), { pacing });
      expect(p.durationInFrames).toBeLessThanOrEqual(VIDEO_MAX_SECONDS[pacing] * p.fps);
      expect(p.chapters.map((c) => c.step)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(p.omittedSteps).toBeUndefined();
    }
  });

  it('a 1.5-million-frame video (the old 100,000-step skim) renders in at most 32 chunks that tile it', () => {
    const chunks = planChunks(1_500_270, { workers: 3 });
    expect(chunks.length).toBeLessThanOrEqual(MAX_CHUNKS);
    let at = 0;
    for (const c of chunks) {
      expect(c.fromFrame).toBe(at);
      at = c.toFrame + 1;
    }
    expect(at).toBe(1_500_270);
  });
});
