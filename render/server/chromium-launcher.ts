import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Chromium switches for rendering that Remotion's `chromiumOptions` cannot pass (4.0.527 takes
 * none of its own), passed through a launcher script that execs the real executable with them.
 *
 * `--disable-frame-rate-limit` takes the 60 Hz clock out of every frame. Remotion seeks a frame,
 * waits a requestAnimationFrame for React to commit it, then asks for a screenshot: with frames
 * paced at 60 Hz, a frame whose pixels changed waited for the next tick before it was drawn and
 * copied, ~20 ms a changed frame on this machine. Unpaced, the capture follows the commit. Every
 * captured JPEG and the MP4 are byte-identical with and without it; the derivation-heavy frames
 * render ~1.15-1.2x faster (render/README.md, "Measuring a render"). `--disable-gpu-vsync` alone
 * changed nothing measurable, and with this one it gained nothing more.
 */
export const RENDER_CHROMIUM_SWITCHES = ['--disable-frame-rate-limit'] as const;

const launchers = new Map<string, string>();

/** A shell word: the string in single quotes, each ' in it written '\'' */
const shellWord = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The path of an executable script that runs `executable` with RENDER_CHROMIUM_SWITCHES before
 * the arguments it is given (written once per executable and process, under the OS temp dir,
 * again if it was removed, and removed when the process exits). Throws when `executable` is not an executable file.
 */
export function chromiumLauncher(executable: string): string {
  const known = launchers.get(executable);
  // written again if something removed it since (a temp cleaner, in a worker that runs for weeks)
  if (known && existsSync(known)) return known;
  const missing = chromiumMissing(executable);
  if (missing) throw new Error(`render: ${missing}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-chromium-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'chromium');
  writeFileSync(file, `#!/bin/sh\nexec ${shellWord(path.resolve(executable))} ${RENDER_CHROMIUM_SWITCHES.join(' ')} "$@"\n`, {
    mode: 0o755,
  });
  launchers.set(executable, file);
  return file;
}

/**
 * Why `executable` cannot be used to render (not there, or not executable), or null when it can:
 * the render handlers' `unmet`, so a worker on a machine without Chromium leaves render jobs queued.
 */
export function chromiumMissing(executable: string): string | null {
  try {
    accessSync(executable, constants.X_OK);
    return null;
  } catch {
    return `Chromium not found or not executable at ${executable} (CHROMIUM_PATH); install it with scripts/ensure-chromium.sh (apt-get install -y chromium)`;
  }
}
