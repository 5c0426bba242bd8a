import { beforeEach, describe, expect, it } from 'vitest';
import { formatNames } from '../../lib/formats/trajectory';
import { resetDatabase } from '../../lib/db/test/reset';
import { main } from '../main';
import { fakeIo } from '../io-testing';

const fixtures = 'lib/formats/fixtures';

describe('witness import', () => {
  beforeEach(resetDatabase);

  it('imports every format from a directory walk, reports each failure with where and what, and is idempotent', async () => {
    const io = fakeIo();
    const code = await main(['import', fixtures, '--project', 'cli-test', '--json'], io);
    const report = JSON.parse(io.out);
    expect(Object.keys(report).sort()).toEqual(['errors', 'failed', 'imported', 'skipped', 'trajectories', 'unchangedFiles']);
    expect(report.unchangedFiles).toBe(0);
    expect(code).toBe(1); // the fixtures include broken files on purpose
    // every format has a fixture that imports, found by content in one walk
    expect(new Set(report.trajectories.map((t: { format: string }) => t.format))).toEqual(new Set(formatNames));
    expect(report.errors).toContainEqual({
      path: `${fixtures}/terminal-bench/run`,
      where: 'broken-task/broken-task.1-of-1.2025-08-07__20-46-16',
      message: expect.stringMatching(/^no steps: this Terminal-Bench trial has no agent recording/),
    });
    for (const t of report.trajectories) expect(Object.keys(t).sort()).toEqual(['format', 'id', 'policy', 'steps', 'task']);
    expect(report.imported).toBeGreaterThan(20);
    expect(report.errors).toContainEqual({
      path: `${fixtures}/atif/truncated.json`,
      where: 'line 7',
      message: 'invalid JSON at line 7, column 47: unexpected end of input',
    });
    expect(report.errors).toContainEqual({
      path: `${fixtures}/atif/bad-arguments.json`,
      where: '/steps/3/tool_calls/0/arguments',
      message: 'expected object, received string',
    });
    expect(report.errors).toContainEqual({
      path: `${fixtures}/asciinema/bad-event.cast`,
      where: 'line 4',
      message: 'invalid event: expected [time, code, data]',
    });
    expect(report.errors).toContainEqual(
      expect.objectContaining({ path: `${fixtures}/atif/empty.json`, message: 'empty file: nothing to import' }),
    );
    expect(report.failed).toBe(report.errors.length);

    const again = fakeIo();
    await main(['import', fixtures, '--project', 'cli-test', '--json'], again);
    const second = JSON.parse(again.out);
    expect(second.imported).toBe(0);
    expect(second.skipped).toBe(report.imported + report.skipped);
    // files imported completely are not parsed again, yet the report is the same: their trajectories, ids and order; the broken files fail again
    expect(second.unchangedFiles).toBeGreaterThan(15);
    expect(second.trajectories).toEqual(report.trajectories);
    expect(second.errors).toEqual(report.errors);
  });

  it('reads stdin with -, forces a format, and exits 0 when nothing failed', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(`${fixtures}/openai/weather-conversation.json`, 'utf8');
    const io = fakeIo(text);
    const code = await main(
      ['import', '-', '--format', 'openai', '--project', 'stdin-test', '--split', 'eval', '--environment', 'chat', '--json'],
      io,
    );
    expect(code).toBe(0);
    const report = JSON.parse(io.out);
    expect(report).toMatchObject({ imported: 1, skipped: 0, failed: 0, errors: [] });
    expect(report.trajectories[0].format).toBe('openai');
  });

  it('says where and what for 1e999 and an empty Inspect sample, and imports an .eval archive (issue 14, items 12c, 12d, 10)', async () => {
    const { mkdtemp, readFile, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { deflatedEntry, writeZip, bombEntry } = await import('../../lib/formats/zip-testing');
    const dir = await mkdtemp(`${tmpdir()}/witness-import-`);
    try {
      const atif = await readFile(`${fixtures}/atif/basic.json`, 'utf8');
      await writeFile(`${dir}/overflow.json`, atif.replace(/"prompt_tokens": 1600/, '"prompt_tokens": 1e999'));
      const log = JSON.parse(await readFile(`${fixtures}/inspect/log.json`, 'utf8')) as Record<string, unknown>;
      await writeFile(`${dir}/empty-sample.json`, JSON.stringify({ ...log, samples: [{}] }));
      const { samples, ...header } = log as { samples: { id: string; epoch: number }[] };
      const entries = [
        deflatedEntry('header.json', JSON.stringify(header)),
        deflatedEntry('samples/empty_epoch_1.json', '{}'),
        deflatedEntry(`samples/${samples[0]!.id}_epoch_1.json`, JSON.stringify(samples[0])),
        bombEntry('samples/bomb_epoch_1.json', 300),
      ];
      await writeFile(`${dir}/run.eval`, writeZip(entries));
      const io = fakeIo();
      expect(await main(['import', dir, '--project', 'hostile', '--json'], io)).toBe(1);
      const report = JSON.parse(io.out);
      expect(report.imported).toBe(1);
      expect(report.trajectories[0]).toMatchObject({ format: 'inspect', task: samples[0]!.id });
      const noSteps =
        /^no steps: this inspect trajectory \(task "sample"\) records nothing the agent did and no final answer, so it is not imported$/;
      expect(report.errors).toEqual([
        { path: `${dir}/empty-sample.json`, where: '/samples/0', message: expect.stringMatching(noSteps) },
        {
          path: `${dir}/overflow.json`,
          where: 'line 35',
          message: '/steps/3/metrics/prompt_tokens: 1e999 is not a finite number (out of range for a 64-bit float)',
        },
        { path: `${dir}/run.eval`, where: 'zip entry samples/empty_epoch_1.json', message: expect.stringMatching(noSteps) },
        {
          path: `${dir}/run.eval`,
          where: 'zip entry samples/bomb_epoch_1.json',
          message: 'inflates to 300.0 MiB, over the limit of 128.0 MiB for one entry: refused unread',
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('imports whole Cline task and OpenHands session folders, aider histories and Claude Code hooks completely (issue 44)', async () => {
    const { cp, mkdtemp, mkdir, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/witness-import-44-`);
    try {
      // the layouts the tools write: <globalStorage>/tasks/<id>/, ~/.openhands/sessions/<id>/, a repo's aider history
      await mkdir(`${dir}/tasks`);
      await cp(`${fixtures}/cline-task/1764412345678`, `${dir}/tasks/1764412345678`, { recursive: true });
      await mkdir(`${dir}/sessions`);
      await cp(`${fixtures}/openhands/session-7f3a`, `${dir}/sessions/7f3a`, { recursive: true });
      await cp(`${fixtures}/aider/.aider.chat.history.md`, `${dir}/.aider.chat.history.md`);
      await cp(`${fixtures}/coding-agents/claude-code-hooks.jsonl`, `${dir}/session.jsonl`);
      await cp(`${fixtures}/openhands/trajectory-7f3a.json`, `${dir}/trajectory-7f3a.json`);
      const io = fakeIo();
      const code = await main(['import', dir, '--project', 'issue-44', '--json'], io);
      const report = JSON.parse(io.out);
      expect(report.errors).toEqual([]);
      expect(code).toBe(0);
      const steps = report.trajectories.map((t: { format: string; steps: number }) => [t.format, t.steps]);
      expect(steps).toEqual([
        ['aider', 11], // walked in name order: the hidden history first; one trajectory per session with chat
        ['aider', 2],
        ['claude-code', 9],
        ['openhands', 4],
        ['cline', 6],
        ['openhands', 14],
      ]);
      // an events/ folder alone is one input too
      const events = fakeIo();
      expect(await main(['import', `${dir}/sessions/7f3a/events`, '--project', 'issue-44-events', '--json'], events)).toBe(0);
      expect(JSON.parse(events.out).trajectories.map((t: { steps: number }) => t.steps)).toEqual([4]);

      // a JSON file no importer reads: one clear refusal, never one error per element
      await writeFile(
        `${dir}/unknown.json`,
        JSON.stringify([
          { kind: 'a', observation: 'run' },
          { kind: 'b', observation: 'run' },
        ]),
      );
      const unknown = fakeIo();
      expect(await main(['import', `${dir}/unknown.json`, '--project', 'issue-44', '--json'], unknown)).toBe(1);
      expect(JSON.parse(unknown.out).errors).toEqual([
        {
          path: `${dir}/unknown.json`,
          where: 'file',
          message: expect.stringMatching(/^format not recognised \(closest: OpenHands, because .*\); pass --format to force one$/),
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a forced format that does not fit, and usage errors exit 2', async () => {
    const io = fakeIo();
    expect(await main(['import', `${fixtures}/atif/basic.json`, '--format', 'asciinema', '--project', 'x', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).failed).toBe(1);
    const usage = fakeIo();
    expect(await main(['import', '--format', 'nope', 'x'], usage)).toBe(2);
    expect(usage.err).toContain('--format must be auto or one of');
    expect(await main(['import', 'no/such/path', '--project', 'x', '--json'], fakeIo())).toBe(1);
  });
});

describe('witness user create', () => {
  beforeEach(resetDatabase);

  it('creates a user with a generated password shown once, and refuses a duplicate', async () => {
    const io = fakeIo();
    expect(
      await main(['user', 'create', '--email', 'Phys@Example.com', '--role', 'reviewer', '--expertise', 'physics,optics', '--json'], io),
    ).toBe(0);
    const created = JSON.parse(io.out);
    expect(created).toMatchObject({ email: 'phys@example.com', role: 'reviewer', expertise: ['physics', 'optics'] });
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const dup = fakeIo();
    expect(await main(['user', 'create', '--email', 'phys@example.com', '--role', 'lead'], dup)).toBe(1);
    expect(dup.err).toBe('error: A user with email phys@example.com already exists\n');
    const bad = fakeIo();
    expect(await main(['user', 'create', '--email', 'x@example.com', '--role', 'boss'], bad)).toBe(2);
  });
});
