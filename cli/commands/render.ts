import path from 'node:path';
import { parseArgs } from 'node:util';
import { disconnectDb } from '../../lib/db/client';
import { choosePacing } from '../../lib/video/choose-pacing';
import { pacingSchema } from '../../lib/video/pacing';
import { freshVideoPropsFor } from '../../lib/video/video-props-for';
import { CliError, type CliCommand } from '../command';
import { openDatabase } from '../database';

export const renderCommand: CliCommand = {
  name: 'render',
  summary: 'render trajectories to proof-of-work MP4s in this process (no worker needed)',
  help: `Usage: witness render <trajectory-id>… [--out FILE.mp4] [--pacing read|skim] [--json]

Renders each trajectory's TrajectoryVideo composition with Debian's Chromium (CHROMIUM_PATH)
in this process and writes an h264 MP4 atomically (a partial file is renamed when complete).

  --out FILE.mp4   output file (one trajectory only; default ./witness-<id>.mp4)
  --pacing P       read (every card readable at 1x) or skim (the ~90 s overview); default:
                   read when a campaign holding the trajectory paces for reading, else skim
  --json           print {"videos": [{"id", "path", "frames", "fps", "seconds", "pacing"}]}`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { out: { type: 'string' }, pacing: { type: 'string' }, json: { type: 'boolean', default: false } },
      strict: true,
    });
    if (positionals.length === 0) throw new CliError('give at least one trajectory id', 2);
    const pacingArg = values.pacing === undefined ? undefined : pacingSchema.safeParse(values.pacing);
    if (pacingArg && !pacingArg.success) throw new CliError(`--pacing: expected read or skim, got "${values.pacing}"`, 2);
    if (values.out && positionals.length > 1)
      throw new CliError('--out takes one trajectory; without it each goes to ./witness-<id>.mp4', 2);
    // the renderer (webpack bundler, Chromium) loads only when this command runs
    const { renderTrajectoryVideo } = await import('../../render/server/render-video');
    const database = await openDatabase();
    const videos = [];
    try {
      for (const id of positionals) {
        const pacing = await choosePacing(id, pacingArg?.data);
        const props = await freshVideoPropsFor(id, pacing);
        const outPath = path.resolve(io.cwd, values.out ?? `witness-${id}.mp4`);
        if (!values.json) io.stderr(`rendering ${id} (${props.durationInFrames} frames, ${pacing} pacing)...\n`);
        const t0 = performance.now();
        const result = await renderTrajectoryVideo({ props, outPath });
        const seconds = result.frames / result.fps;
        videos.push({ id, path: result.outPath, frames: result.frames, fps: result.fps, seconds, pacing });
        if (!values.json)
          io.stdout(
            `${result.outPath}  ${result.frames} frames, ${result.fps} fps, ${seconds.toFixed(1)} s (rendered in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
          );
      }
      if (values.json) io.stdout(JSON.stringify({ videos }) + '\n');
      return 0;
    } finally {
      await disconnectDb();
      await database.stop();
    }
  },
};
