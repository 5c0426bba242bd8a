import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { harborImporter, rewardFromObject, testsFromPytest } from './harbor';
import type { ParsedItem, SourceDir } from './importer';
import { dirSource, memoryDir, probeDir } from './source';
import { trajectorySchema, type Trajectory } from './trajectory';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'harbor');

async function importDir(dir: SourceDir): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const item of harborImporter.parse({ kind: 'dir', dir })) items.push(item);
  return items;
}

async function importOne(dir: SourceDir): Promise<Trajectory> {
  const [item, ...rest] = await importDir(dir);
  expect(rest).toHaveLength(0);
  if (!item?.ok) throw new Error(`import failed: ${JSON.stringify(item)}`);
  expect(() => trajectorySchema.parse(item.trajectory)).not.toThrow();
  return item.trajectory;
}

describe('harbor trial directories', () => {
  it('imports a trial: ATIF steps, cast, reward.txt, CTRF tests, castTime from timestamps', async () => {
    const t = await importOne(dirSource(path.join(fixtures, 'trial-basic')));
    expect(t.format).toBe('harbor');
    expect(t.externalId).toBe('fix-permissions__a1b2c3d');
    expect(t.task.name).toBe('fix-permissions');
    expect(t.task.instruction).toContain('Make /app/script.sh executable');
    expect(t.task.environment).toBe('docker');
    expect(t.task.metadata).toMatchObject({ path: 'tasks/fix-permissions', dataset: 'terminal-bench' });
    expect(t.policy).toEqual({ model: 'anthropic/claude-sonnet-4-5', checkpoint: null, agent: 'terminus-2' });
    expect(t.steps).toHaveLength(4);
    expect(t.steps.map((s) => s.castTime)).toEqual([0, 1, 4.5, 9]);
    expect(t.terminal?.version).toBe(2);
    expect(t.terminal?.events).toHaveLength(8);
    expect(t.verifier).toEqual({
      reward: 1,
      components: {
        'test:test_outputs.py::test_script_is_executable': 1,
        'test:test_outputs.py::test_output_matches': 1,
        'test:test_outputs.py::test_no_extra_files': 0,
      },
    });
    expect(t.task.acceptanceCriteria.map((c) => [c.key, c.origin, c.verdict])).toEqual([
      ['script-sh-is-executable', 'task', null],
      ['output-matches-expected-txt', 'task', null],
      ['test_outputs.py::test_script_is_executable', 'verifier', true],
      ['test_outputs.py::test_output_matches', 'verifier', true],
      ['test_outputs.py::test_no_extra_files', 'verifier', false],
    ]);
    expect(t.usage).toEqual({ promptTokens: 3100, completionTokens: 260, costUsd: 0.0142 });
    expect(t.startedAt).toBe('2025-11-02T08:59:50.000000');
    expect(t.exitStatus).toBeNull();
    expect(t.metadata).toMatchObject({ castPath: 'agent/recording.cast', castLink: 'timestamps', rewardSource: 'verifier/reward.txt' });
    expect(t.metadata.warnings).toBeUndefined();
  });

  it('imports reward.json, pytest output, judge details, v3 cast markers as castTime', async () => {
    const t = await importOne(dirSource(path.join(fixtures, 'trial-judged')));
    expect(t.task.name).toBe('acme/summarise-logs');
    expect(t.policy).toEqual({ model: 'anthropic/claude-opus-4-1', checkpoint: null, agent: 'claude-code' });
    expect(t.task.environment).toBe('daytona');
    expect(t.verifier?.reward).toBeCloseTo((1 + 0.5 + 1) / 3);
    expect(t.verifier?.components).toEqual({
      correctness: 1,
      style: 0.5,
      passed: 1,
      'test:tests/test_summary.py::test_summary_exists': 1,
      'test:tests/test_summary.py::test_mentions_errors': 0,
    });
    expect(t.task.acceptanceCriteria.map((c) => [c.key, c.verdict])).toEqual([
      ['tests/test_summary.py::test_summary_exists', true],
      ['tests/test_summary.py::test_mentions_errors', false],
      ['tests/test_summary.py::test_optional', null],
    ]);
    expect(t.judgeScores).toEqual([
      { judge: 'style', score: 0.5, label: 'partial', explanation: 'Concise but misses the error count heading.' },
    ]);
    // no timestamps anywhere: the i-th marker goes to the i-th agent step
    expect(t.steps.map((s) => [s.source, s.castTime])).toEqual([
      ['user', null],
      ['agent', 1.5],
      ['agent', 4],
    ]);
    expect(t.steps[2]?.observations[0]).toEqual({ toolCallId: 't2', content: 'permission denied', isError: true });
    expect(t.terminal?.version).toBe(3);
    expect(t.exitStatus).toBe('AgentTimeoutError');
    expect(t.metadata).toMatchObject({ castPath: 'agent/session.cast', castLink: 'markers', exceptionMessage: 'agent exceeded 900s' });
  });

  it('imports every trial of a job directory', async () => {
    const items = await importDir(dirSource(fixtures));
    expect(items.map((i) => i.ok && i.trajectory.externalId)).toEqual(['fix-permissions__a1b2c3d', 'summarise-logs__zz9']);
    expect(items.map((i) => i.where)).toEqual(['trial-basic', 'trial-judged']);
    // a job's own config/result at the root does not make the root a trial
    const job = memoryDir('job', {
      'config.json': '{}',
      'result.json': '{}',
      'b/result.json': '{"trial_name": "b"}',
      'b/verifier/reward.txt': '0.5',
      'a/agent/trajectory.json': await readFile(path.join(import.meta.dirname, 'fixtures', 'atif', 'basic.json'), 'utf8'),
      'notes/readme.md': 'x',
    });
    expect((await importDir(job)).map((i) => i.where)).toEqual(['a', 'b']);
  });

  it('fails a trial whose trajectory.json is broken, naming file and pointer', async () => {
    const bad = await readFile(path.join(import.meta.dirname, 'fixtures', 'atif', 'bad-arguments.json'), 'utf8');
    const items = await importDir(memoryDir('t', { 'config.json': '{}', 'agent/trajectory.json': bad }));
    expect(items).toEqual([
      {
        ok: false,
        where: 'agent/trajectory.json /steps/3/tool_calls/0/arguments',
        message: 'agent/trajectory.json: /steps/3/tool_calls/0/arguments: expected object, received string',
      },
    ]);
    const truncated = await importDir(memoryDir('t', { 'agent/trajectory.json': '{"schema_version": "ATIF-v1.4",\n "steps": [' }));
    expect(truncated[0]).toMatchObject({ ok: false, where: 'agent/trajectory.json line 2' });
    if (truncated[0]?.ok === false) expect(truncated[0].message).toContain('invalid JSON at line 2, column 12');
  });

  it('degrades on a broken cast or reward, keeping the trial', async () => {
    const atif = await readFile(path.join(import.meta.dirname, 'fixtures', 'atif', 'basic.json'), 'utf8');
    const t = await importOne(
      memoryDir('trial-x', {
        'result.json': '{"task_name": "x", "verifier_result": {"rewards": {"reward": 0}}}',
        'agent/trajectory.json': atif,
        'agent/recording.cast': '{"version": 2, "width": 80, "height": 24}\n[1, "o"]\n',
        'verifier/reward.txt': 'n/a\n',
      }),
    );
    expect(t.terminal).toBeNull();
    expect(t.verifier).toEqual({ reward: 0, components: { reward: 0 } });
    expect(t.metadata.warnings).toEqual([
      'agent/recording.cast: line 2: invalid event: expected [time, code, data]',
      'verifier/reward.txt: not a number: "n/a"',
    ]);
    expect(t.externalId).toBe('trial-x');
  });

  it('uses the cast for steps when there is no trajectory.json', async () => {
    const cast = await readFile(path.join(import.meta.dirname, 'fixtures', 'asciinema', 'bursts.cast'), 'utf8');
    const t = await importOne(memoryDir('trial-y', { 'result.json': '{"trial_name": "y"}', 'agent/recording.cast': cast }));
    expect(t.steps.map((s) => s.source)).toEqual(['environment', 'environment', 'environment']);
    expect(t.task.name).toBe('y');
    expect(t.verifier).toBeNull();
  });

  it('reports an empty or unrelated directory', async () => {
    expect(await importDir(memoryDir('empty', {}))).toEqual([
      { ok: false, where: 'empty', message: 'no Harbor trial found (expected config.json/result.json with agent/ or verifier/)' },
    ]);
    expect(await importDir(memoryDir('t', { 'config.json': '{}', 'agent/log.txt': 'x', 'result.json': '' }))).toEqual([
      { ok: false, where: 't', message: 'not a readable Harbor trial: no agent/trajectory.json and no readable result.json' },
    ]);
  });

  it('detects trial and job directories by their entries', async () => {
    expect(harborImporter.detect(await probeDir(dirSource(path.join(fixtures, 'trial-basic'))))).toBe(true);
    expect(harborImporter.detect(await probeDir(dirSource(fixtures)))).toBe(true);
    expect(harborImporter.detect({ kind: 'dir', path: 'x', entries: ['config.json', 'README.md'] })).toBe(false);
    expect(harborImporter.detect({ kind: 'file', path: 'result.json', head: '{}', headBytes: new Uint8Array() })).toBe(false);
  });
});

describe('harbor helpers', () => {
  it('reward.json rule: `reward` key, else the only value, else the mean', () => {
    expect(rewardFromObject({ reward: 0.25, other: 1 }).reward).toBe(0.25);
    expect(rewardFromObject({ accuracy: 0.7 }).reward).toBe(0.7);
    expect(rewardFromObject({ a: 1, b: 0 }).reward).toBe(0.5);
    expect(rewardFromObject({ note: 'x' })).toEqual({ reward: null, components: {} });
  });

  it('parses pytest verbose and summary lines (with colour codes)', () => {
    const out =
      '\u001b[32mPASSED\u001b[0m tests/a.py::test_ok\nERROR tests/a.py::test_err - boom\ntests/a.py::test_x XFAIL\nSKIPPED [2] tests/a.py:3: reason';
    expect(testsFromPytest(out)).toEqual([
      { name: 'tests/a.py::test_ok', verdict: true },
      { name: 'tests/a.py::test_err', verdict: false },
      { name: 'tests/a.py::test_x', verdict: null },
    ]);
  });
});
