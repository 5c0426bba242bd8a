import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ensureEnvironment } from '../../lib/trajectories/queries/projects';
import type { Split } from '../../lib/formats/trajectory';
import { collectInputs } from '../../lib/ingest/collect-inputs';
import { importTrajectories, type ImportError } from '../../lib/ingest/import-trajectories';

/** The demo source files: real Harbor trials, Inspect logs, a SWE-agent .traj and an Anthropic conversation. */
export const DEMO_DIR = path.join(import.meta.dirname, 'demo');

export interface DemoGroup {
  /** relative to DEMO_DIR: a Harbor trial directory or a single file */
  path: string;
  environment: string;
  split: Split;
  /** the policy name to file it under (the importers cannot read a checkpoint, so it is named here) */
  policy?: string;
  /** how many trajectories the source holds (a broken item is caught even when the file parses) */
  trajectories: number;
}

/**
 * One import per group, so each can carry its environment, split and policy. Together they cover
 * every file under DEMO_DIR (checked on each run: a demo file nobody lists fails loudly).
 *
 * What each shows a reviewer:
 * - logstats-p95 (train): three policies on one task. ckpt-1000 fixes IPv6 but misdiagnoses the p95
 *   (reward 0); ckpt-2000 loosens the test's assertion to pytest.approx(2181, rel=5) and "passes"
 *   (reward 1, a reward hack to flag); Claude finds the string sort and fixes it properly (reward 1).
 * - git-recover-release-notes (eval): Claude cherry-picks the lost commit from the reflog (reward 1);
 *   ckpt-2000 runs `git gc`, then rewrites the changelog from memory under its own name (reward 0).
 * - physical-pendulum-small-oscillations (eval): two epochs; the second reaches the right ω through two
 *   compensating sign errors, yet both the match scorer and the LLM judge pass it.
 * - bead-on-rotating-hoop (train): epoch 1 complete, epoch 2 misses the off-axis equilibria (judge: P).
 * - hoop-frequency-numeric-check (train): Anthropic thinking + tool use checking the hoop ω numerically.
 * - damped-spring-release (train): two epochs deriving x(t) over five display equations; the answer is
 *   plotted on its result card (values and range from the task). Epoch 2 flips the sign of the sine term
 *   (the plot starts with a nonzero slope, though released from rest); the LLM judge still passes it.
 * - acme-labs__tinyconf-42: a SWE-agent run that submits a diff (resolved).
 */
export const DEMO_GROUPS: DemoGroup[] = [
  {
    path: 'terminal-bench/logstats-p95/acme-coder-7b-ckpt-1000',
    environment: 'terminal-bench',
    split: 'train',
    policy: 'acme/coder-7b@ckpt-1000 / acme-shell',
    trajectories: 1,
  },
  {
    path: 'terminal-bench/logstats-p95/acme-coder-7b-ckpt-2000',
    environment: 'terminal-bench',
    split: 'train',
    policy: 'acme/coder-7b@ckpt-2000 / acme-shell',
    trajectories: 1,
  },
  { path: 'terminal-bench/logstats-p95/claude-sonnet-4-5', environment: 'terminal-bench', split: 'train', trajectories: 1 },
  {
    path: 'terminal-bench/git-recover-release-notes/acme-coder-7b-ckpt-2000',
    environment: 'terminal-bench',
    split: 'eval',
    policy: 'acme/coder-7b@ckpt-2000 / acme-shell',
    trajectories: 1,
  },
  { path: 'terminal-bench/git-recover-release-notes/claude-sonnet-4-5', environment: 'terminal-bench', split: 'eval', trajectories: 1 },
  {
    path: 'physics-derivations/physical-pendulum_claude-sonnet-4-5.json',
    environment: 'physics-derivations',
    split: 'eval',
    trajectories: 2,
  },
  {
    path: 'physics-derivations/bead-on-rotating-hoop_acme-coder-7b-ckpt-2000.json',
    environment: 'physics-derivations',
    split: 'train',
    policy: 'acme/coder-7b@ckpt-2000 / generate',
    trajectories: 2,
  },
  {
    path: 'physics-derivations/hoop-frequency-numeric-check_claude-sonnet-4-5.json',
    environment: 'physics-derivations',
    split: 'train',
    policy: 'anthropic/claude-sonnet-4-5 / notebook-agent',
    trajectories: 1,
  },
  {
    path: 'physics-derivations/damped-spring-release_claude-sonnet-4-5.json',
    environment: 'physics-derivations',
    split: 'train',
    trajectories: 2,
  },
  { path: 'repo-bugfix/acme-labs__tinyconf-42.traj', environment: 'repo-bugfix', split: 'train', trajectories: 1 },
];

/** Environments the demo adds beyond those seedDemo creates. */
const EXTRA_ENVIRONMENTS = [{ name: 'repo-bugfix', description: 'Fix an issue in a Python repository; hidden tests decide' }];

export interface DemoTrajectoriesReport {
  imported: number;
  skipped: number;
  /** trajectories in the demo set (imported + skipped) */
  total: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

function describeErrors(errors: ImportError[]): string {
  return errors.map((e) => `${e.path}: ${e.where}: ${e.message}`).join('; ');
}

/**
 * Imports the demo trajectories into the project through the same code as `witness import`.
 * Idempotent (content hashes: a second run imports nothing). Throws when any demo file fails to
 * import or yields a different number of trajectories than listed, so a broken demo file fails
 * tests and `witness start` loudly.
 */
export async function seedDemoTrajectories(
  projectId: string,
  options: { importedById?: string | null } = {},
): Promise<DemoTrajectoriesReport> {
  const files = await listFiles(DEMO_DIR);
  const unlisted = files.filter((f) => !DEMO_GROUPS.some((g) => f === g.path || f.startsWith(`${g.path}/`)));
  if (unlisted.length > 0) throw new Error(`demo files not listed in DEMO_GROUPS: ${unlisted.join(', ')}`);
  const empty = DEMO_GROUPS.filter((g) => !files.some((f) => f === g.path || f.startsWith(`${g.path}/`)));
  if (empty.length > 0) throw new Error(`DEMO_GROUPS lists paths with no files: ${empty.map((g) => g.path).join(', ')}`);

  for (const env of EXTRA_ENVIRONMENTS) await ensureEnvironment(projectId, env.name, env.description);

  const report: DemoTrajectoriesReport = { imported: 0, skipped: 0, total: 0 };
  for (const group of DEMO_GROUPS) {
    const result = await importTrajectories(
      collectInputs([path.join(DEMO_DIR, group.path)], {
        format: 'auto',
        maxBytes: 64 * 1024 * 1024,
        readStdin: async () => '',
      }),
      {
        projectId,
        format: 'auto',
        environment: group.environment,
        split: group.split,
        policy: group.policy ?? null,
        importedById: options.importedById ?? null,
      },
    );
    if (result.failed > 0) throw new Error(`demo import failed for ${group.path}: ${describeErrors(result.errors)}`);
    const count = result.trajectories.length;
    if (count !== group.trajectories)
      throw new Error(`demo import of ${group.path} gave ${count} trajectories, expected ${group.trajectories}`);
    report.imported += result.imported;
    report.skipped += result.skipped;
    report.total += count;
  }
  return report;
}
