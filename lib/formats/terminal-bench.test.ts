import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputs, type CollectedInput } from '../ingest/collect-inputs';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, probeOf, trajectories } from './chat-testing';
import { detectFormat } from './detect';
import { harborImporter } from './harbor';
import { memoryDir, probeFile, memorySource } from './source';
import { findTbTrials, keysText, parseKeysLine, terminalBenchImporter } from './terminal-bench';
import { trajectorySchema } from './trajectory';
import { trajectoryVideoProps } from '../video/props';

/*
 * The fixture run (fixtures/terminal-bench/run) is written for these tests in the layout the
 * Terminal-Bench 1.x harness writes (laude-institute/terminal-bench: terminal_bench/harness/
 * harness.py and models.py TrialResults/RunMetadata, handlers/trial_handler.py TrialPaths), with
 * shapes checked against real `tb run` output published in laude-institute/terminal-bench-leaderboard
 * (results/terminal-bench-core@0.1.1/*: commands.txt as Python list reprs, agent.cast with the
 * keys as `i` events, tests.cast from a second tmux session, parser_results "passed"/"failed",
 * trials with only results.json).
 */
const RUN = 'terminal-bench/run';
const HELLO = 'hello-world/hello-world.1-of-1.2025-08-07__20-46-16';
const FIX = 'fix-permissions/fix-permissions.1-of-1.2025-08-07__20-46-16';
const BROKEN = 'broken-task/broken-task.1-of-1.2025-08-07__20-46-16';

describe('terminal-bench detection', () => {
  it('claims a run, a task folder and a trial folder; its results files are claimed to be refused', async () => {
    const run = await fixtureInput(RUN);
    expect(detectFormat(await probeOf(run))).toBe('terminal-bench');
    expect(detectFormat(await fixtureProbe(`${RUN}/hello-world`))).toBe('terminal-bench');
    expect(detectFormat(await fixtureProbe(`${RUN}/${HELLO}`))).toBe('terminal-bench');
    expect(detectFormat(await fixtureProbe(`${RUN}/results.json`))).toBe('terminal-bench');
    expect(detectFormat(await fixtureProbe(`${RUN}/${HELLO}/results.json`))).toBe('terminal-bench');
    expect(detectFormat(await fixtureProbe(`${RUN}/run_metadata.json`))).toBe('terminal-bench');
    // its casts alone are still asciinema, a Harbor trial is still Harbor
    expect(detectFormat(await fixtureProbe(`${RUN}/${HELLO}/sessions/agent.cast`))).toBe('asciinema');
    expect(detectFormat(await fixtureProbe('harbor/trial-basic'))).toBe('harbor');
    expect(terminalBenchImporter.detect(await fixtureProbe('harbor/trial-basic'))).toBe(false);
    // `--format harbor` reads a Terminal-Bench run too
    expect(harborImporter.detect(await probeOf(run))).toBe(true);
  });

  it('finds trials at most two levels down, not the run summary', () => {
    expect(findTbTrials(['results.json', 'run_metadata.json', 'a/a.1-of-1.r/results.json', 'a/a.1-of-1.r/sessions/agent.cast'])).toEqual([
      'a/a.1-of-1.r/',
    ]);
    expect(findTbTrials(['results.json', 'commands.txt'])).toEqual(['']);
    expect(findTbTrials(['t/results.json', 't/panes/post-test.txt'])).toEqual(['t/']);
    expect(findTbTrials(['x/y/z/results.json', 'x/y/z/sessions/agent.cast'])).toEqual([]);
    expect(findTbTrials(['notes/results.json'])).toEqual([]);
  });
});

describe('commands.txt keys', () => {
  it('reads Python list reprs, with both quote styles and escapes', () => {
    expect(parseKeysLine("['asciinema rec --stdin /logs/agent.cast', 'Enter']")).toEqual([
      'asciinema rec --stdin /logs/agent.cast',
      'Enter',
    ]);
    expect(parseKeysLine(`["echo 'hi'", 'Enter']`)).toEqual(["echo 'hi'", 'Enter']);
    expect(parseKeysLine(`['mini -t \\'I\\'"\\'"\\'ve\\nsecond\\' -y', 'Enter']`)).toEqual([`mini -t 'I'"'"'ve\nsecond' -y`, 'Enter']);
    expect(parseKeysLine("['C-d']")).toEqual(['C-d']);
    expect(parseKeysLine('[]')).toEqual([]);
    expect(parseKeysLine('ls -la')).toBeNull();
    expect(parseKeysLine("['unterminated]")).toBeNull();
    expect(keysText(['bash ', '/tests/run-tests.sh', 'Enter'])).toBe('bash /tests/run-tests.sh\n');
    expect(keysText(['q', 'C-c'])).toBe('q<C-c>');
  });
});

describe('terminal-bench run import', () => {
  it('imports each trial as one trajectory and refuses the trial with nothing recorded', async () => {
    const items = await collect(terminalBenchImporter, await fixtureInput(RUN));
    expect(items.map((i) => i.where)).toEqual([BROKEN, FIX, HELLO]);
    expect(errors(items)).toEqual([
      {
        where: BROKEN,
        message:
          'no steps: this Terminal-Bench trial has no agent recording (sessions/agent.cast), no commands (commands.txt) and no agent logs (agent-logs/), so nothing the agent did can be imported; its results.json alone is a verdict, not a trajectory',
      },
    ]);
    const [fix, hello] = trajectories(items.slice(1));
    for (const t of [fix, hello]) expect(trajectorySchema.parse(t)).toEqual(t);

    // an installed agent: the commands are the steps, linked to the recording by their input events
    expect(hello?.format).toBe('terminal-bench');
    expect(hello?.externalId).toBe('hello-world.1-of-1.2025-08-07__20-46-16');
    expect(hello?.task.name).toBe('hello-world');
    expect(hello?.task.instruction).toBe('Create a file called hello.txt in the current directory. Write "Hello, world!" to it.');
    expect(hello?.task.metadata).toEqual({ dataset: 'terminal-bench-core@0.1.1' });
    expect(hello?.policy).toEqual({ model: 'anthropic/claude-sonnet-4-20250514', checkpoint: null, agent: 'terminus' });
    expect(hello?.task.acceptanceCriteria).toEqual([
      { key: 'test_hello_file_exists', text: 'test_hello_file_exists', origin: 'verifier', verdict: true },
      { key: 'test_hello_file_content', text: 'test_hello_file_content', origin: 'verifier', verdict: true },
    ]);
    expect(hello?.verifier).toEqual({ reward: 1, components: { 'test:test_hello_file_exists': 1, 'test:test_hello_file_content': 1 } });
    expect(hello?.steps.map((s) => [s.source, (s.toolCalls[0]?.arguments as { keystrokes: string }).keystrokes, s.castTime])).toEqual([
      ['environment', 'source /installed-agent/setup-env.sh\n', 3.71],
      ['environment', "source /installed-agent/install-agent.sh && echo 'INSTALL_SUCCESS'\n", 4.16],
      ['agent', "echo 'Hello, world!' > hello.txt\n", 9.5],
      ['agent', 'cat hello.txt\n', 12.25],
      ['environment', 'bash /tests/run-tests.sh\n', 41.01],
    ]);
    expect(hello?.steps[0]?.timestamp).toBe('2025-08-08T03:50:08.710Z');
    // the verifier's step: the test run, replayed after the agent, with the post-test pane
    const verify = hello?.steps[4];
    expect(verify?.text).toBe('The verifier runs the tests.');
    expect(verify?.observations[0]?.content).toContain('PASSED ../tests/test_outputs.py::test_hello_file_content');
    expect(verify?.timestamp).toBe('2025-08-08T03:50:32.000000+00:00');
    // the tests cast starts 27 s after the agent's by the headers, but the agent's recording runs until 40.01 s: 1 s after it
    expect(hello?.terminal?.events.filter((e) => e[1] === 'm')).toEqual([[41.01, 'm', 'tests']]);
    expect(hello?.terminal?.events.at(-1)?.[0]).toBe(47.01);
    expect(hello?.usage).toBeNull(); // 0 and 0 tokens: an installed agent the harness did not count
    expect(hello?.exitStatus).toBeNull();
    expect(hello?.startedAt).toBe('2025-08-08T03:50:00.100000+00:00');
    expect(hello?.metadata).toMatchObject({
      runId: '2025-08-07__20-46-16',
      isResolved: true,
      stepsFrom: 'commands',
      castLink: 'input events',
    });

    // Terminus: its episodes are the steps (reasoning, keystrokes), linked by the agent's markers
    expect(fix?.steps.map((s) => [s.source, s.text, s.castTime])).toEqual([
      ['agent', "I need to look at the script's permissions.", 2],
      ['agent', 'The script is not executable: chmod it and run it.', 6],
      ['environment', 'The verifier runs the tests.', 12],
    ]);
    expect(fix?.steps[0]?.reasoning).toBe('I am at /app; I have not looked at the script yet.');
    expect(fix?.steps[1]?.toolCalls.map((c) => c.arguments)).toEqual([
      { keystrokes: 'chmod +x process_data.sh\n', blocking: true },
      { keystrokes: './process_data.sh\n', blocking: true },
    ]);
    expect(fix?.verifier).toEqual({ reward: 0, components: { 'test:test_script_executable': 1, 'test:test_script_output': 0 } });
    expect(fix?.usage).toEqual({ promptTokens: 1830, completionTokens: 412, costUsd: null });
    expect(fix?.metadata).toMatchObject({ stepsFrom: 'episodes', castLink: 'markers' });
    expect(fix?.metadata.testsCastAt).toBeUndefined();
  });

  it('replays the verifier in the video after the agent, with the test verdicts as evidence', async () => {
    const items = await collect(terminalBenchImporter, await fixtureInput(`${RUN}/hello-world`));
    const [hello] = trajectories(items);
    const props = trajectoryVideoProps(hello!);
    const replays = props.scenes.filter((s) => s.kind === 'terminal');
    expect(replays.at(-1)).toMatchObject({ step: 4, castFrom: 41.01 });
    expect(props.criteria.map((c) => [c.key, c.marks.map((m) => `${m.source}:${m.state}`)])).toEqual([
      ['test_hello_file_exists', ['evidence:pass', 'verifier:pass']],
      ['test_hello_file_content', ['evidence:pass', 'verifier:pass']],
    ]);
  });

  it('reads the same run under --format harbor', async () => {
    const viaHarbor = await collect(harborImporter, await fixtureInput(RUN));
    const own = await collect(terminalBenchImporter, await fixtureInput(RUN));
    expect(viaHarbor).toEqual(own);
  });

  it('says where and what for broken parts', async () => {
    const dir = memoryDir('run', {
      'a/a.1-of-1.r/results.json': '{"task_id": "a", ',
      'b/b.1-of-1.r/results.json': JSON.stringify({ trial_name: 'b.1-of-1.r', instruction: 'x' }),
      'c/c.1-of-1.r/results.json': JSON.stringify({ trial_name: 'c.1-of-1.r', task_id: 'c', instruction: 'Say hi.', is_resolved: false }),
      'c/c.1-of-1.r/commands.txt': "['echo hi', 'Enter']\nnot keys\n",
      'c/c.1-of-1.r/sessions/agent.cast': '{"version": 2, "width": 80, "height": 24}\n[0.5, "i", "echo hi\\r"]\n[0.6, "o", broken]\n',
    });
    const items = await collect(terminalBenchImporter, { kind: 'dir', dir });
    expect(errors(items)).toEqual([
      { where: 'a/a.1-of-1.r/results.json', message: expect.stringMatching(/^results\.json: invalid JSON at line 1, column \d+/) },
      { where: 'b/b.1-of-1.r/results.json /task_id', message: 'missing: expected the task id' },
    ]);
    const [c] = trajectories(items.slice(2));
    expect(c?.steps.map((s) => s.source)).toEqual(['agent']);
    expect(c?.terminal).toBeNull();
    expect(c?.verifier).toEqual({ reward: 0, components: {} });
    expect(c?.metadata.warnings).toEqual([
      'sessions/agent.cast: line 3: invalid event: invalid JSON at column 12: unexpected character "b"',
      'commands.txt line 2: not a list of keys',
    ]);
  });

  it('refuses a results.json given alone, and a run folder without its trial folders', async () => {
    const file = memoryInput(
      'results.json',
      JSON.stringify({ id: 'x', results: [{ trial_name: 't.1-of-1', task_id: 't', instruction: 'i' }] }),
    );
    expect(await collect(terminalBenchImporter, file)).toEqual([
      {
        ok: false,
        where: 'results.json',
        message:
          'a Terminal-Bench results.json holds verdicts, not what the agent did: import the run folder (or the trial folder, with its sessions/ and commands.txt) instead',
      },
    ]);
    const summaryOnly = memoryDir('run', {
      'run_metadata.json': '{"run_id": "r", "agent_name": "a", "n_attempts": 1}',
      'results.json': '{}',
    });
    expect(detectFormat({ kind: 'dir', path: 'run', entries: await summaryOnly.list() })).toBe('terminal-bench');
    expect(errors(await collect(terminalBenchImporter, { kind: 'dir', dir: summaryOnly }))).toEqual([
      {
        where: 'run',
        message:
          'this Terminal-Bench run folder holds only the run summary (run_metadata.json, results.json) and no trial folders (<task>/<trial>/ with sessions/ and commands.txt): nothing the agent did can be imported',
      },
    ]);
    expect(detectFormat(await probeFile(memorySource('x.json', '{"trial_name": "t", "task_id": "t", "is_resolved": true}')))).toBe(
      'terminal-bench',
    );
  });
});

describe('walking a folder of runs', () => {
  async function all(iter: AsyncIterable<CollectedInput>): Promise<CollectedInput[]> {
    const out: CollectedInput[] = [];
    for await (const x of iter) out.push(x);
    return out;
  }

  it('takes each run as one input (auto and --format harbor), and the files beside it on their own', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'witness-tb-'));
    await cp(path.join(import.meta.dirname, 'fixtures', RUN), path.join(root, 'runs', '2025-08-07__20-46-16'), { recursive: true });
    await writeFile(path.join(root, 'runs', 'notes.json'), '{"messages": []}');
    for (const format of ['auto', 'harbor', 'terminal-bench'] as const) {
      const inputs = await all(collectInputs([root], { format, maxBytes: 1e9, readStdin: async () => '' }));
      expect(inputs.map((i) => [i.ok && i.input.kind, path.relative(root, i.path)])).toEqual([
        ['dir', 'runs/2025-08-07__20-46-16'],
        ['file', 'runs/notes.json'],
      ]);
    }
  });
});
