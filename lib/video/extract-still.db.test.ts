import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { storeTrajectory } from '../ingest/store-trajectory';
import { openStore } from '../storage/open-store';
import { ensureProject } from '../trajectories/queries/projects';
import { extractStill } from './extract-still';

/** The still route's use-case on a real MP4 (made here with Remotion's bundled ffmpeg) in the real object store. */

const ffmpeg = (() => {
  const root = path.join(process.cwd(), 'node_modules', '@remotion');
  const dir = readdirSync(root).find((d) => d.startsWith('compositor-'))!;
  return path.join(root, dir, 'ffmpeg');
})();

/** A width × height PNG of one colour (8-bit RGB), written by hand: Remotion's ffmpeg has no test sources. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x60)]);
  const idat = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function setup() {
  const project = await ensureProject({ slug: 'still', name: 'still' });
  const t = buildTrajectory({
    format: 'openai',
    task: { name: 'task', instruction: 'do it', environment: 'env' },
    policy: { model: 'm' },
    steps: [{ source: 'agent', text: 'hello' }],
  });
  const { id } = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  const lead: SessionUser = {
    id: 'lead',
    email: 'l@x.test',
    name: 'l',
    role: 'lead',
    expertise: [],
    access: projectAccess('lead', [{ projectId: project.id, role: 'lead' }]),
  };
  return { trajectoryId: id, lead, projectId: project.id };
}

describe('extractStill', () => {
  beforeEach(resetDatabase);

  it('cuts a PNG of the rendered MP4 at a frame (clamped to the last), and says when none is rendered', async () => {
    const { trajectoryId, lead } = await setup();
    await expect(extractStill(lead, { trajectoryId, frame: 0, pacing: 'skim' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('No skim video of this trajectory is rendered yet'),
    });

    // a 2 s, 30 fps pattern as the rendered video
    const dir = mkdtempSync(path.join(tmpdir(), 'still-test-'));
    const mp4 = path.join(dir, 'v.mp4');
    const png = path.join(dir, 'frame.png');
    writeFileSync(png, solidPng(320, 240));
    execFileSync(
      ffmpeg,
      ['-v', 'error', '-loop', '1', '-framerate', '30', '-i', png, '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', mp4],
      { env: { NODE_ENV: 'test', LD_LIBRARY_PATH: path.dirname(ffmpeg) } },
    );
    const key = `videos/test-${Date.now()}.mp4`;
    await openStore().putFile(key, mp4, 'video/mp4');
    await db().video.create({
      data: { trajectoryId, compositionVersion: 'test', pacing: 'skim', status: 'done', storageKey: key, frames: 60, fps: 30 },
    });

    const still = await extractStill(lead, { trajectoryId, frame: 45, pacing: 'skim' });
    expect(still.png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(still.png.readUInt32BE(16)).toBe(320); // IHDR width
    expect(still).toMatchObject({ frame: 45, timeSec: 1.5 });
    expect((await extractStill(lead, { trajectoryId, frame: 10_000, pacing: 'skim' })).frame).toBe(59);

    // outsiders: as if absent
    const outsider: SessionUser = { ...lead, id: 'o', role: 'reviewer', access: projectAccess('reviewer', []) };
    await expect(extractStill(outsider, { trajectoryId, frame: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
