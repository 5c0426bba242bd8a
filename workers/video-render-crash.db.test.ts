import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { storeTrajectory } from '../lib/ingest/store-trajectory';
import { findVideo } from '../lib/video/queries/videos';
import { resetDatabase } from '../lib/db/test/reset';
import { env } from '../lib/env';
import { chatRun } from '../lib/formats/build-trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import { createBoss, findJobs, installQueue, stopQueueClient } from '../lib/queue/boss';
import { requestRender } from '../lib/video/request-render';
import { jobContracts } from '../lib/queue/job-list';
import { killGroup, startWorkerProcess, waitFor } from './test/worker-process';
import { videoStorageKey } from '../lib/video/video-files';

/**
 * A worker killed with SIGKILL in the middle of a render (Chromium and ffmpeg with it) leaves
 * no file under the video's final name, and a worker started afterwards finishes the job: the
 * job's heartbeat stops, the supervisor fails the attempt, pg-boss retries it, and the retry
 * takes over the half-done render. Real worker processes (`witness worker`), real Chromium.
 */

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('a worker killed mid-render', () => {
  let dataDir: string;
  const workers: ChildProcess[] = [];

  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, jobContracts);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'witness-crash-'));
  });
  afterEach(async () => {
    for (const w of workers) killGroup(w, 'SIGKILL');
    workers.length = 0;
    await stopQueueClient();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves no half-written file visible, and the job completes on retry in another worker', { timeout: 420_000 }, async () => {
    const project = await ensureProject({ slug: 'crash', name: 'Crash' });
    const trajectory = chatRun('openai', { name: 'crash-render', instruction: 'Count to five, one step at a time.' }, 'tiny-model', [
      { source: 'user', text: 'Count to five.' },
      ...[1, 2, 3, 4, 5].map((n) => ({ source: 'agent' as const, text: `Number ${n}. ${'Checking the count again. '.repeat(6)}` })),
    ]);
    const { id: trajectoryId } = await storeTrajectory(project.id, prepareTrajectory(trajectory), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const log: string[] = [];
    const first = startWorkerProcess(dataDir, log);
    workers.push(first);
    const { videoId } = await requestRender(env().DATABASE_URL!, trajectoryId);

    // kill it once it is really rendering (frames done, file not yet stored)
    await waitFor(
      'the render to get going',
      async () => {
        const v = await findVideo(videoId);
        return v && v.status === 'rendering' && v.progress > 0.05;
      },
      240_000,
      log,
    );
    killGroup(first, 'SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const storeDir = path.join(dataDir, 'storage');
    const finalPath = path.join(storeDir, videoStorageKey(videoId));
    expect(existsSync(finalPath)).toBe(false);
    // nothing at all in the store: partial output lives in a temp dir, never under storage
    expect(filesUnder(storeDir)).toEqual([]);
    const stuck = await findVideo(videoId);
    expect(stuck?.status).toBe('rendering');

    const second = startWorkerProcess(dataDir, log);
    workers.push(second);
    const done = await waitFor(
      'the retry to finish the video',
      async () => {
        const v = await findVideo(videoId);
        if (v?.status === 'failed') throw new Error(`video failed: ${v.error}`);
        return v?.status === 'done' ? v : null;
      },
      300_000,
      log,
    );

    expect(done.storageKey).toBe(videoStorageKey(videoId));
    const bytes = readFileSync(finalPath);
    expect(bytes.byteLength).toBe(done.sizeBytes);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // the combine deletes the chunks right after marking the video done (and a chunk that a
    // retried attempt stores later removes itself): the store ends with the MP4 alone
    await waitFor('the chunks to be cleaned up', async () => filesUnder(storeDir).length === 1, 30_000, log);
    expect(filesUnder(storeDir)).toEqual([videoStorageKey(videoId)]);
    // the second worker took over through a retry of the killed job (heartbeat missed), not a new job
    const boss = createBoss(env().DATABASE_URL!, 'producer');
    await boss.start();
    try {
      const jobs = [...(await findJobs(boss, 'video.render', {})), ...(await findJobs(boss, 'video.render-chunk', {}))];
      expect(jobs.every((j) => j.state === 'completed')).toBe(true);
      expect(Math.max(...jobs.map((j) => j.retryCount))).toBeGreaterThanOrEqual(1);
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
