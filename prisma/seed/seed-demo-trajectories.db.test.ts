import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { resetDatabase } from '../../lib/db/test/reset';
import { seedDemo, type SeedReport } from './seed-demo';
import { SWEEP_CHECKPOINTS, SWEEP_TASKS } from './demo-sweep';
import { ACTIVE_TASKS } from './seed-demo-active';
import { DEMO_DIR, DEMO_GROUPS } from './seed-demo-trajectories';
import { DEMO_SUPPORT_CAMPAIGN, DEMO_SUPPORT_TRAJECTORIES } from './seed-demo-support';
import { demoUsers } from './demo-users';
import { sessionUserFor } from '../../lib/auth/queries/memberships';
import { findUserByEmail } from '../../lib/auth/queries/users';
import { visibleProjectIds } from '../../lib/auth/project-access';

const expectedTrajectories = DEMO_GROUPS.reduce((n, g) => n + g.trajectories, 0);
/** the synthetic checkpoint sweep seedDemo adds for the demo campaigns (seed-demo-campaigns.db.test.ts) */
const sweepTrajectories = SWEEP_TASKS.length * SWEEP_CHECKPOINTS.length;
// the active campaign's nightly batch (seed-demo-active.ts): one run a task and checkpoint
const activeTrajectories = ACTIVE_TASKS * SWEEP_CHECKPOINTS.length;

async function counts() {
  const [trajectories, steps, sources, tasks, policies, judgeScores, blobs] = await Promise.all([
    db().trajectory.count(),
    db().step.count(),
    db().importSource.count(),
    db().task.count(),
    db().policy.count(),
    db().judgeScore.count(),
    db().trajectoryBlob.count(),
  ]);
  return { trajectories, steps, sources, tasks, policies, judgeScores, blobs };
}

describe('demo trajectories (seedDemo)', () => {
  let first: SeedReport;
  let second: SeedReport;
  let afterFirst: Awaited<ReturnType<typeof counts>>;

  beforeAll(async () => {
    await resetDatabase();
    first = await seedDemo();
    afterFirst = await counts();
    second = await seedDemo();
  }, 120_000);

  it('imports every demo file without failures, and a second run creates nothing', async () => {
    expect(first.trajectoriesImported).toBe(expectedTrajectories);
    expect(first.trajectoriesSkipped).toBe(0);
    expect(second).toMatchObject({
      projectId: first.projectId,
      usersCreated: 0,
      trajectoriesImported: 0,
      trajectoriesSkipped: expectedTrajectories,
    });
    expect(afterFirst.trajectories).toBe(expectedTrajectories + sweepTrajectories + activeTrajectories + DEMO_SUPPORT_TRAJECTORIES);
    expect(await counts()).toEqual(afterFirst);

    // every listed source is stored as an import source (the raw file or trial directory)
    const sources = await db().importSource.findMany({ where: { projectId: first.projectId }, select: { path: true, format: true } });
    const stored = new Set(sources.map((s) => path.relative(DEMO_DIR, s.path).split(path.sep).join('/')));
    for (const g of DEMO_GROUPS) expect(stored, g.path).toContain(g.path);
    expect(new Set(sources.map((s) => s.format))).toEqual(new Set(['harbor', 'inspect', 'anthropic', 'swe-agent']));
  });

  it('files trajectories under at least two environments, with train and eval tasks', async () => {
    const environments = await db().environment.findMany({
      where: { projectId: first.projectId },
      select: { name: true, tasks: { select: { name: true, split: true, _count: { select: { trajectories: true } } } } },
    });
    const withTrajectories = environments.filter((e) => e.tasks.some((t) => t._count.trajectories > 0)).map((e) => e.name);
    expect(withTrajectories).toEqual(expect.arrayContaining(['terminal-bench', 'physics-derivations']));
    const tasks = environments.flatMap((e) => e.tasks.map((t) => ({ env: e.name, ...t })));
    const sweepTasks = new Set(SWEEP_TASKS.map((t) => t.name));
    expect(
      tasks
        .filter((t) => t.split === 'eval' && !sweepTasks.has(t.name))
        .map((t) => t.name)
        .sort(),
    ).toEqual(['git-recover-release-notes', 'physical-pendulum-small-oscillations']);
    expect(tasks.find((t) => t.name === 'logstats-p95')).toMatchObject({
      env: 'terminal-bench',
      split: 'train',
      _count: { trajectories: 3 },
    });
  });

  it('names the checkpoints as separate policies on the same task', async () => {
    const rows = await db().trajectory.findMany({
      where: { projectId: first.projectId, task: { name: 'logstats-p95' } },
      select: { verifierReward: true, policy: { select: { name: true } } },
    });
    const byPolicy = Object.fromEntries(rows.map((r) => [r.policy.name, r.verifierReward]));
    expect(byPolicy).toEqual({
      'acme/coder-7b@ckpt-1000 / acme-shell': 0,
      'acme/coder-7b@ckpt-2000 / acme-shell': 1,
      'anthropic/claude-sonnet-4-5 / acme-shell': 1,
    });
  });

  it('keeps the reward hack visible: the passing ckpt-2000 run patches the test file', async () => {
    const hack = await db().trajectory.findFirstOrThrow({
      where: { projectId: first.projectId, task: { name: 'logstats-p95' }, policy: { name: 'acme/coder-7b@ckpt-2000 / acme-shell' } },
      select: { verifierReward: true, steps: { select: { toolCalls: true }, orderBy: { index: 'asc' } } },
    });
    expect(hack.verifierReward).toBe(1);
    const patches = hack.steps
      .flatMap((s) => s.toolCalls as { name: string; arguments: { patch?: string } }[])
      .filter((c) => c.name === 'apply_patch');
    expect(
      patches.some(
        (c) => c.arguments.patch?.includes('+++ b/tests/test_logstats.py') && c.arguments.patch.includes('pytest.approx(2181, rel=5)'),
      ),
    ).toBe(true);
  });

  it('gives terminal trajectories a recording with steps linked to it', async () => {
    const terminal = await db().trajectory.findMany({
      where: { projectId: first.projectId, sourceFormat: 'harbor' },
      select: { id: true, blobs: { select: { kind: true } }, steps: { select: { source: true, castTime: true } } },
    });
    expect(terminal).toHaveLength(5);
    for (const t of terminal) {
      expect(t.blobs.map((b) => b.kind)).toContain('terminal');
      const agentSteps = t.steps.filter((s) => s.source === 'agent');
      expect(agentSteps.length).toBeGreaterThan(0);
      expect(agentSteps.every((s) => s.castTime !== null)).toBe(true);
    }
  });

  it('gives the physics derivations judge scores, a verifier and LaTeX in their steps', async () => {
    const physics = await db().trajectory.findMany({
      where: { projectId: first.projectId, sourceFormat: 'inspect' },
      select: {
        verifierReward: true,
        task: { select: { name: true, acceptanceCriteria: true } },
        judgeScores: { select: { judge: true, explanation: true } },
        steps: { select: { text: true } },
      },
    });
    expect(physics).toHaveLength(6);
    for (const t of physics) {
      expect(t.judgeScores.map((j) => j.judge).sort()).toEqual(['match', 'model_graded_qa']);
      expect(t.judgeScores.find((j) => j.judge === 'model_graded_qa')?.explanation).toMatch(/^GRADE: [CPI]\./);
      expect(t.verifierReward).not.toBeNull();
      expect((t.task.acceptanceCriteria as unknown[]).length).toBe(4);
      const text = t.steps.map((s) => s.text).join('\n');
      expect(text).toMatch(/\$\$[^$]+\$\$|\\\[[\s\S]+?\\\]/);
      expect(text).toMatch(/\\omega/);
    }
  });

  it('seeds two projects with different members: each lead sees only their own, the admin both', async () => {
    const access = async (email: string) => (await sessionUserFor((await findUserByEmail(email))!, null)).access;
    const demo = first.projectId;
    const support = first.supportProjectId;
    expect(demo).not.toBe(support);
    expect(second.supportProjectId).toBe(support);
    expect(visibleProjectIds(await access('lead@witness.local'), 'lead')).toEqual([demo]);
    expect(visibleProjectIds(await access('quinn@witness.local'), 'lead')).toEqual([support]);
    expect(visibleProjectIds(await access('rio@witness.local'), 'reviewer')).toEqual([support]);
    expect(visibleProjectIds(await access('rio@witness.local'), 'lead')).toEqual([]);
    for (const email of ['reviewer@witness.local', 'physicist@witness.local', 'sol@witness.local'])
      expect(visibleProjectIds(await access(email), 'reviewer'), email).toEqual([demo]);
    expect(visibleProjectIds(await access('admin@witness.local'), 'lead')).toBeNull();
    // every demo user's memberships are what demo-users.ts says, and a re-run added none
    expect(await db().projectMember.count()).toBe(demoUsers.reduce((n, u) => n + Object.keys(u.projects).length, 0));
    expect(await db().trajectory.count({ where: { projectId: support } })).toBe(DEMO_SUPPORT_TRAJECTORIES);
    expect(await db().campaign.findMany({ where: { projectId: support }, select: { name: true, status: true } })).toEqual([
      { name: DEMO_SUPPORT_CAMPAIGN, status: 'open' },
    ]);
  });
});
