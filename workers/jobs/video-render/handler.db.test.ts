import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../lib/db/client';
import { ensureProject } from '../../../lib/trajectories/queries/projects';
import { resetDatabase } from '../../../lib/db/test/reset';
import { storeTrajectory } from '../../../lib/ingest/store-trajectory';
import { listVideoChunks, requestVideo } from '../../../lib/video/queries/videos';
import { writeWorkerHeartbeat } from '../../../lib/db/worker-heartbeats';
import { env } from '../../../lib/env';
import { chatRun } from '../../../lib/formats/build-trajectory';
import { prepareTrajectory } from '../../../lib/ingest/prepare-trajectory';
import { installQueue, stopQueueClient } from '../../../lib/queue/boss';
import { COMPOSITION_VERSION } from '../../../lib/video/composition-version';
import { videoPropsFor } from '../../../lib/video/video-props-for';
import { jobContracts } from '../../../lib/queue/job-list';
import { videoRenderChunkJob } from '../../../lib/queue/jobs/video-render-chunk';
import { videoRenderHandler } from './handler';

/** The fan-out of a long video: split for the live chunk workers, planned once (a retry keeps the plan). */
const longTrajectory = chatRun('openai', { name: 'long', instruction: 'Fix the build, one command at a time.' }, 'm', [
  { source: 'user', text: 'The build fails. Fix it.' },
  ...Array.from({ length: 22 }, (_, i) => ({
    source: 'agent' as const,
    text: `Step ${i + 1}: ${'I change one line and run the build again. '.repeat(5)}`,
  })),
]);

const ctx = (attempt: number) => ({
  jobId: `job-${attempt}`,
  attempt,
  signal: new AbortController().signal,
  log: () => {},
  now: () => new Date(),
});
/** Stores the long trajectory in a project of its own; its id. */
async function storeLong(slug: string): Promise<string> {
  const project = await ensureProject({ slug, name: slug });
  const stored = await storeTrajectory(project.id, prepareTrajectory(longTrajectory), {
    source: null,
    sourceWhere: null,
    importedById: null,
  });
  return stored.id;
}
const heartbeat = (id: string, queues: string[]) => writeWorkerHeartbeat({ id, hostname: 'test', pid: 1, queues });

describe('video.render fan-out', () => {
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, jobContracts);
  });
  afterAll(stopQueueClient);

  it('splits into a multiple of the live chunk workers, and a retry keeps the chunks it planned', async () => {
    const trajectoryId = await storeLong('fan-out');
    const frames = (await videoPropsFor(trajectoryId)).durationInFrames;
    expect(frames).toBeGreaterThan(1200);
    expect(frames).toBeLessThan(1500); // 5 chunks of about 300 for one worker
    // two workers take chunks, a third only other jobs
    await heartbeat('w1', ['video.render', videoRenderChunkJob.name]);
    await heartbeat('w2', [videoRenderChunkJob.name]);
    await heartbeat('w3', ['dataset.export']);
    const video = await requestVideo(trajectoryId, COMPOSITION_VERSION, 'skim');
    expect(await videoRenderHandler.handle({ videoId: video.id }, ctx(0))).toEqual({ chunks: 6 });
    const planned = await listVideoChunks(video.id);
    expect(planned.map((c) => [c.fromFrame, c.toFrame])).toEqual(
      planned.map((_, i) => [i * Math.ceil(frames / 6), Math.min(frames, (i + 1) * Math.ceil(frames / 6)) - 1]),
    );

    // the retry after a crash, with one worker left: the same six chunks, none added or moved
    await db().workerHeartbeat.deleteMany({ where: { id: 'w2' } });
    expect(await videoRenderHandler.handle({ videoId: video.id }, ctx(1))).toEqual({ chunks: 6 });
    expect(await listVideoChunks(video.id)).toEqual(planned);
  }, 60_000);

  it('plans a read-paced video over the read-paced length (its own row, beside the skim one)', async () => {
    const trajectoryId = await storeLong('fan-out-read');
    const skimFrames = (await videoPropsFor(trajectoryId)).durationInFrames;
    const readFrames = (await videoPropsFor(trajectoryId, undefined, 'read')).durationInFrames;
    expect(readFrames).toBeGreaterThan(skimFrames);
    await heartbeat('w1', ['video.render', videoRenderChunkJob.name]);
    const video = await requestVideo(trajectoryId, COMPOSITION_VERSION, 'read');
    expect(video.id).not.toBe((await requestVideo(trajectoryId, COMPOSITION_VERSION, 'skim')).id);
    await videoRenderHandler.handle({ videoId: video.id }, ctx(0));
    const planned = await listVideoChunks(video.id);
    expect(planned.length).toBeGreaterThan(1);
    expect(planned.at(-1)!.toFrame).toBe(readFrames - 1);
  }, 60_000);
});
