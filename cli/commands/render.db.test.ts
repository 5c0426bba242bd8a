import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureProject } from '../../lib/trajectories/queries/projects';
import { resetDatabase } from '../../lib/db/test/reset';
import { storeTrajectory } from '../../lib/ingest/store-trajectory';
import { chatRun } from '../../lib/formats/build-trajectory';
import { prepareTrajectory } from '../../lib/ingest/prepare-trajectory';
import { videoPropsFor } from '../../lib/video/video-props-for';
import { probeVideo } from '../../render/server/probe-video-testing';
import type { CliIo } from '../command';
import { main } from '../main';

describe('witness render', () => {
  beforeEach(resetDatabase);

  it('renders a stored trajectory to an MP4 in-process and prints path, frames, fps and seconds', async () => {
    const project = await ensureProject({ slug: 'render-cli', name: 'render-cli' });
    const trajectory = chatRun('openai', { name: 'say-hello', instruction: 'Say hello.' }, 'tiny', [
      { source: 'user', text: 'Say hello.' },
      { source: 'agent', text: 'Hello!' },
    ]);
    const { id } = await storeTrajectory(project.id, prepareTrajectory(trajectory), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'witness-render-cli-')), 'hello.mp4');
    let stdout = '';
    const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => {}, readStdin: async () => '', cwd: process.cwd() };
    expect(await main(['render', id, '--out', out, '--json'], io)).toBe(0);
    const report = JSON.parse(stdout) as {
      videos: { id: string; path: string; frames: number; fps: number; seconds: number; pacing: string }[];
    };
    // in no campaign that paces for reading: the skim overview
    const expected = (await videoPropsFor(id, undefined, 'skim')).durationInFrames;
    expect(report.videos).toEqual([{ id, path: out, frames: expected, fps: 30, seconds: expected / 30, pacing: 'skim' }]);
    expect(existsSync(out)).toBe(true);
    expect(probeVideo(out)).toMatchObject({ codec: 'h264', width: 1280, height: 720, frames: expected });
  }, 180_000);

  it('refuses an unknown trajectory and a usage error', async () => {
    let stderr = '';
    const io: CliIo = { stdout: () => {}, stderr: (t) => void (stderr += t), readStdin: async () => '', cwd: process.cwd() };
    expect(await main(['render', 'no-such-id'], io)).toBe(1);
    expect(stderr).toBe('error: No such trajectory\n');
    expect(await main(['render', 'a', 'b', '--out', 'x.mp4'], io)).toBe(2);
  });
});
