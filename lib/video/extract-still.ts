import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { openStore } from '../storage/open-store';
import { choosePacing } from './choose-pacing';
import type { Pacing } from './pacing';
import { latestTrajectoryVideo } from './read-video';

const run = promisify(execFile);

/**
 * One frame of a trajectory's rendered proof-of-work MP4 as a PNG (GET
 * /api/mcp/stills/ID, the MCP get_still tool's link), cut by Remotion's bundled
 * ffmpeg (@remotion/compositor-*). For a lead of its project (the rendered video names the policy
 * and the reward, as the trajectory page does); CONFLICT, saying what to do, when no video is
 * rendered yet. The frame is clamped to the video's last.
 */
export async function extractStill(
  user: SessionUser,
  input: { trajectoryId: string; frame: number; pacing?: Pacing },
): Promise<{ png: Buffer; frame: number; timeSec: number; videoId: string }> {
  await requireProjectRoleFor(user, 'trajectory', input.trajectoryId, 'lead');
  const pacing = await choosePacing(input.trajectoryId, input.pacing);
  const video = await latestTrajectoryVideo(input.trajectoryId, pacing);
  if (!video || video.status !== 'done' || !video.storageKey || !video.frames || !video.fps)
    throw new AppError(
      'CONFLICT',
      `No ${pacing} video of this trajectory is rendered yet${video ? ` (it is ${video.status})` : ''}: render it (the trajectory page, or \`witness render\`) and ask again.`,
    );
  const frame = Math.min(Math.max(0, Math.floor(input.frame)), video.frames - 1);
  const timeSec = frame / video.fps;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-still-'));
  try {
    const mp4 = path.join(dir, 'video.mp4');
    const stream = await openStore().read(video.storageKey);
    await pipeline(Readable.fromWeb(stream as WebReadableStream<Uint8Array>), createWriteStream(mp4));
    const png = await ffmpegFrame(mp4, timeSec, video.fps);
    return { png, frame, timeSec, videoId: video.id };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function ffmpegBinary(): string {
  const root = path.join(process.cwd(), 'node_modules', '@remotion');
  const dirs = existsSync(root) ? readdirSync(root).filter((d) => d.startsWith('compositor-')) : [];
  for (const d of dirs) {
    const bin = path.join(root, d, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
    if (existsSync(bin)) return bin;
  }
  throw new AppError('INTERNAL', "Remotion's ffmpeg (@remotion/compositor-*) is not installed");
}

/**
 * The frame at `timeSec` as PNG bytes. Remotion's ffmpeg is built without the pipe protocol, so the
 * PNG goes through a file beside the MP4; it decodes from half a second before the moment and keeps
 * the last frame it reaches (`-update 1`), so the video's very last frame (where a seek right to it
 * yields nothing) comes out too.
 */
async function ffmpegFrame(mp4: string, timeSec: number, fps: number): Promise<Buffer> {
  const bin = ffmpegBinary();
  const out = path.join(path.dirname(mp4), 'still.png');
  const from = Math.max(0, timeSec - 0.5);
  const span = timeSec - from + 0.5 / fps;
  const args = ['-v', 'error', '-ss', from.toFixed(3), '-i', mp4, '-t', span.toFixed(3), '-update', '1', '-c:v', 'png', '-y', out];
  try {
    await run(bin, args, { timeout: 30_000, env: { NODE_ENV: 'production', LD_LIBRARY_PATH: path.dirname(bin) } });
    return await readFile(out);
  } catch (error) {
    throw new Error(`ffmpeg could not cut the still: ${(error as Error).message.slice(0, 300)}`);
  }
}
