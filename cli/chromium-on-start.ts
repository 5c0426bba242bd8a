import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromiumMissing } from '../render/server/chromium-launcher';

/** Debian's Chromium, where scripts/ensure-chromium.sh installs it */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * `witness start` on a machine without Chromium: installs Debian's (scripts/ensure-chromium.sh,
 * as the tests do) when it can (root, the default CHROMIUM_PATH), and otherwise says plainly that
 * the studio runs without it and that videos render once it is there: the worker leaves render
 * jobs queued until then (JobHandler.unmet). Never throws: the studio starts either way.
 * Resolves to whether Chromium is there at the end.
 */
export async function chromiumOnStart(executable: string, root: string, log: (line: string) => void): Promise<boolean> {
  if (!chromiumMissing(executable)) return true;
  const later = `the studio starts without it; videos render once it is there (render jobs wait in the queue)`;
  if (executable !== DEBIAN_CHROMIUM || process.getuid?.() !== 0) {
    log(
      `Chromium not found at ${executable}: ${later}. Install it with \`sudo apt-get install -y chromium\`${executable === DEBIAN_CHROMIUM ? '' : ', or point CHROMIUM_PATH at it'}.`,
    );
    return false;
  }
  log(`Chromium not found at ${executable}: installing Debian's chromium (scripts/ensure-chromium.sh)...`);
  const t0 = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = '';
    const child = spawn('bash', [path.join(root, 'scripts', 'ensure-chromium.sh')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('exit', (code) => resolve({ code, output }));
  });
  if (code === 0 && !chromiumMissing(executable)) {
    log(`Chromium installed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return true;
  }
  const reason = output.trim().split('\n').slice(-3).join(' | ') || `exit code ${code}`;
  log(`Chromium could not be installed (${reason}): ${later}. Install it with \`apt-get install -y chromium\`.`);
  return false;
}
