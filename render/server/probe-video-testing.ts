import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const ffprobe = path.join(path.dirname(require.resolve('@remotion/compositor-linux-x64-gnu/package.json')), 'ffprobe');

/** What Remotion's own ffprobe reads of an MP4's video stream, every frame counted: for the render tests. */
export function probeVideo(file: string): { width: number; height: number; frames: number; duration: number; codec: string } {
  const out = execFileSync(
    ffprobe,
    [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:format=duration',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  const json = JSON.parse(out) as {
    streams: Array<{ codec_name: string; width: number; height: number; nb_read_frames: string }>;
    format: { duration: string };
  };
  const s = json.streams[0]!;
  return {
    codec: s.codec_name,
    width: s.width,
    height: s.height,
    frames: Number(s.nb_read_frames),
    duration: Number(json.format.duration),
  };
}
