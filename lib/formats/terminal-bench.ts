import { castSteps, parseCast, type CastHeader } from './asciinema';
import { linkCastTimes } from './cast-times';
import { makeStep } from './chat-messages';
import type { ImportInput, Importer, ParsedItem, Probe, SourceDir } from './importer';
import { errorItem, isoFromUnix, trajectoryItem, unixFromIso } from './item';
import { asCount, asString, isRecord, parseJson } from './parse-json';
import type { CastEvent, Criterion, Step, TerminalRecording, ToolCall, Trajectory, Verifier } from './trajectory';

/**
 * Terminal-Bench 1.x run output (`tb run`, the `terminal_bench` harness). Layout, from the
 * harness's own writer (terminal_bench/harness/harness.py, handlers/trial_handler.py TrialPaths):
 *
 *   <run_id>/run_metadata.json    RunMetadata: run_id, agent_name, model_name, dataset_name/version, ...
 *   <run_id>/results.json         BenchmarkResults: {results: [TrialResults], accuracy, ...}
 *   <run_id>/tb.lock, run.log
 *   <run_id>/<task_id>/<trial_name>/          trial_name = <task_id>.<attempt>-of-<n>[.<run_id>]
 *       results.json              TrialResults: task_id, instruction, is_resolved, failure_mode,
 *                                 parser_results {test: "passed" | "failed"}, total_input/output_tokens,
 *                                 trial/agent/test started_at and ended_at
 *       sessions/agent.cast       asciinema v2 of the agent's tmux session (with the agent's markers merged)
 *       sessions/tests.cast       the test run's session (absent when the task runs tests in the same shell)
 *       sessions/*.log            the panes piped to a file
 *       panes/pre-agent.txt, post-agent.txt, post-test.txt   pane captures
 *       commands.txt              one line per keys sent to tmux: a Python list repr, `['ls -la', 'Enter']`
 *       agent-logs/episode-N/{prompt.txt,response.txt}       Terminus episodes (response: JSON with commands)
 *
 * One trajectory per trial: the task's instruction, the tests in `parser_results` as verifier
 * criteria (and `test:<name>` components), `is_resolved` as the reward (1/0; none when the tests
 * never ran), `failure_mode` as the exit status. Steps: Terminus episodes when present, else the
 * commands of commands.txt (keys as a `keystrokes` tool call, linked to the recording through its
 * input events), else the recording's bursts or markers. The terminal recording is the agent's
 * cast followed by the test run's (after a `tests` marker, at its real offset when both headers
 * have a timestamp), and the test run is the last step (source `environment`) with the post-test
 * pane as its observation, so the video replays the verifier after the agent.
 * A trial with nothing the agent did recorded (results.json alone) is refused, saying so.
 * Policy: `model_name` / `agent_name` of the run's run_metadata.json (a trial imported without
 * its run has no model).
 */

type Json = Record<string, unknown>;

const TRIAL_NAME = /\.\d+-of-\d+(\.|$)/;
const TRIAL_PARTS = ['sessions', 'panes', 'agent-logs'];

/**
 * The trial prefixes (`''` for the directory itself, else `a/`, `a/b/`) in a listing, at most
 * two levels down (a trial, a task's trials, or a run). A trial has results.json next to
 * sessions/, panes/, agent-logs/ or commands.txt, or sits in a folder named like a trial.
 */
export function findTbTrials(entries: string[]): string[] {
  const files = new Set(entries);
  const withParts = new Set<string>();
  for (const e of entries) {
    const parts = e.split('/');
    for (let j = 0; j < Math.min(parts.length - 1, 3); j++) {
      if (TRIAL_PARTS.includes(parts[j]!))
        withParts.add(
          parts
            .slice(0, j)
            .map((x) => `${x}/`)
            .join(''),
        );
    }
  }
  const trials: string[] = [];
  for (const e of entries) {
    if (e !== 'results.json' && !e.endsWith('/results.json')) continue;
    const p = e.slice(0, -'results.json'.length);
    const depth = p === '' ? 0 : p.split('/').length - 1;
    if (depth > 2 || files.has(`${p}run_metadata.json`)) continue;
    const name = p === '' ? '' : (p.slice(0, -1).split('/').pop() ?? '');
    if (withParts.has(p) || files.has(`${p}commands.txt`) || TRIAL_NAME.test(name)) trials.push(p);
  }
  return trials.sort();
}

// ------------------------------------------------------------------ commands.txt

/** One Python string literal ('…' or "…", with backslash escapes) at `i`; returns the value and the index after it. */
function pythonString(s: string, i: number): { value: string; end: number } | null {
  const quote = s[i];
  if (quote !== "'" && quote !== '"') return null;
  let out = '';
  for (let k = i + 1; k < s.length; k++) {
    const c = s[k]!;
    if (c === quote) return { value: out, end: k + 1 };
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[++k];
    if (n === undefined) return null;
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '0': '\0',
      a: '\x07',
      b: '\b',
      f: '\f',
      v: '\v',
    };
    if (n in simple) out += simple[n];
    else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = s.slice(k + 1, k + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
      out += String.fromCodePoint(parseInt(hex, 16));
      k += len;
    } else out += `\\${n}`;
  }
  return null;
}

/** A commands.txt line (`['ls -la', 'Enter']`) as its keys, or null when it is not a list of strings. */
export function parseKeysLine(line: string): string[] | null {
  const s = line.trim();
  if (!s.startsWith('[') || !s.endsWith(']')) return null;
  const keys: string[] = [];
  let i = 1;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  skip();
  if (s[i] === ']') return keys;
  for (;;) {
    skip();
    const str = pythonString(s, i);
    if (!str) return null;
    keys.push(str.value);
    i = str.end;
    skip();
    if (s[i] === ',') {
      i++;
      skip();
      if (s[i] === ']') return i === s.length - 1 ? keys : null;
      continue;
    }
    return s[i] === ']' && i === s.length - 1 ? keys : null;
  }
}

const SPECIAL_KEY =
  /^(Enter|C-[a-zA-Z@\\[\]^_]|M-.|Escape|Tab|BSpace|BTab|Space|Up|Down|Left|Right|Home|End|PageUp|PageDown|PPage|NPage|IC|DC|F\d{1,2})$/;

/** Keys as typed text: literal keys as-is, Enter as a newline, other tmux key names as `<C-c>`. */
export function keysText(keys: string[]): string {
  return keys.map((k) => (k === 'Enter' ? '\n' : SPECIAL_KEY.test(k) ? `<${k}>` : k)).join('');
}

interface Command {
  keys: string[];
  text: string;
  line: number;
}

/** What a commands.txt line is: harness plumbing (recording start/stop), the test run, setup, or the agent's. */
function commandRole(text: string): 'plumbing' | 'tests-start' | 'tests' | 'setup' | 'agent' {
  const t = text.trim();
  if (/^asciinema rec\b.*\btests\.cast$/.test(t)) return 'tests-start';
  if (/^asciinema rec\b/.test(t) || t === '<C-d>' || t === 'clear') return 'plumbing';
  if (/^bash\s+\/tests\/run-tests\.sh$/.test(t)) return 'tests';
  if (t.includes('/installed-agent/')) return 'setup';
  return 'agent';
}

// ------------------------------------------------------------------ recordings

/** The index of the first input event at or after `from` that carries this command's first line. */
function findInput(events: CastEvent[], from: number, text: string): number {
  const first =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (first === '') return -1;
  for (let k = from; k < events.length; k++) {
    const e = events[k]!;
    if (e[1] !== 'i') continue;
    const data = e[2].replace(/[\r\n]+$/, '').trim();
    if (data === '') continue;
    if (data.startsWith(first.slice(0, 40)) || (data.length >= 3 && first.startsWith(data))) return k;
  }
  return -1;
}

/** The agent's recording followed by the test run's, after a `tests` marker. */
function joinRecordings(
  agent: { header: CastHeader; recording: TerminalRecording } | null,
  tests: { header: CastHeader; recording: TerminalRecording } | null,
): { recording: TerminalRecording | null; testsAt: number | null } {
  if (!agent && !tests) return { recording: null, testsAt: null };
  if (!tests) return { recording: agent!.recording, testsAt: null };
  if (!agent) return { recording: tests.recording, testsAt: 0 };
  const a = agent.recording;
  const lastAgent = a.events.length > 0 ? a.events[a.events.length - 1]![0] : 0;
  const real = agent.header.timestamp !== null && tests.header.timestamp !== null ? tests.header.timestamp - agent.header.timestamp : null;
  const offset = Math.round((real !== null && real >= lastAgent ? real : lastAgent + 1) * 1e6) / 1e6;
  const events: CastEvent[] = [...a.events, [offset, 'm', 'tests']];
  if (tests.recording.width !== a.width || tests.recording.height !== a.height) {
    events.push([offset, 'r', `${tests.recording.width}x${tests.recording.height}`]);
  }
  for (const [t, code, data] of tests.recording.events) events.push([Math.round((offset + t) * 1e6) / 1e6, code, data]);
  return { recording: { ...a, events }, testsAt: offset };
}

// ------------------------------------------------------------------ steps

function step(fields: Partial<Step> & Pick<Step, 'source' | 'text'>): Step {
  return { index: 0, ...makeStep(fields.source, fields) };
}

function keysCall(text: string): ToolCall {
  return { id: null, name: 'terminal', arguments: { keystrokes: text } };
}

/** Terminus episodes: agent-logs/episode-N/response.txt (JSON with analysis/explanation and commands). */
async function episodeSteps(dir: SourceDir, entries: string[], p: string): Promise<Step[] | null> {
  const episodes = entries
    .map((e) => new RegExp(`^${escapeRe(p)}agent-logs/episode-(\\d+)/response\\.txt$`).exec(e))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]));
  if (episodes.length === 0) return null;
  const steps: Step[] = [];
  for (const m of episodes) {
    const file = await dir.file(m[0]);
    if (!file) continue;
    const text = await file.readText();
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    const parsed = start !== -1 && end > start ? parseJson(text.slice(start, end + 1)) : null;
    const r = parsed?.ok && isRecord(parsed.value) ? parsed.value : null;
    if (!r) {
      steps.push(step({ source: 'agent', text: text.trim() }));
      continue;
    }
    const commands = Array.isArray(r.commands) ? r.commands : [];
    steps.push(
      step({
        source: 'agent',
        text: asString(r.explanation) ?? asString(r.plan) ?? '',
        reasoning: asString(r.state_analysis) ?? asString(r.analysis),
        toolCalls: commands.filter(isRecord).map((c) => ({
          id: null,
          name: 'terminal',
          arguments: {
            keystrokes: asString(c.keystrokes) ?? '',
            ...(typeof c.is_blocking === 'boolean' ? { blocking: c.is_blocking } : {}),
          },
        })),
      }),
    );
  }
  return steps.length > 0 ? steps : null;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ------------------------------------------------------------------ one trial

interface RunContext {
  metadata: Json | null;
}

/** A JSON file in a trial directory: null when absent; an empty or broken one as a message naming it. */
export async function readJsonFile(
  dir: SourceDir,
  rel: string,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string } | null> {
  const file = await dir.file(rel);
  if (!file) return null;
  const text = await file.readText();
  if (text.trim() === '') return { ok: false, message: `${rel}: empty file` };
  const json = parseJson(text);
  return json.ok ? { ok: true, value: json.value } : { ok: false, message: `${rel}: ${json.message}` };
}

const str = (obj: Json | null, key: string): string | null => {
  const v = obj?.[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};

async function parseTrial(dir: SourceDir, entries: string[], p: string, run: RunContext): Promise<ParsedItem> {
  const where = p === '' ? dir.path : p.slice(0, -1);
  const warnings: string[] = [];
  const res = await readJsonFile(dir, `${p}results.json`);
  if (!res || !res.ok) return errorItem(`${where}/results.json`, res ? res.message.replace(`${p}`, '') : 'missing');
  if (!isRecord(res.value)) return errorItem(`${where}/results.json`, 'expected a TrialResults object');
  const r = res.value;
  const taskId = str(r, 'task_id');
  if (!taskId) return errorItem(`${where}/results.json /task_id`, 'missing: expected the task id');
  const trialName = str(r, 'trial_name') ?? (p === '' ? (dir.path.split('/').pop() ?? taskId) : p.slice(0, -1).split('/').pop()!);

  // recordings
  const cast = async (rel: string) => {
    const file = await dir.file(`${p}${rel}`);
    if (!file) return null;
    const parsed = await parseCast(file);
    if (parsed.ok) return { header: parsed.header, recording: parsed.recording };
    warnings.push(`${rel}: ${parsed.message}`);
    return null;
  };
  const agentCast = await cast('sessions/agent.cast');
  const testsCast = await cast('sessions/tests.cast');
  const { recording, testsAt } = joinRecordings(agentCast, testsCast);
  const stamp = (t: number | null) =>
    t === null || !agentCast || agentCast.header.timestamp === null ? null : isoFromUnix(agentCast.header.timestamp + t);

  // commands.txt
  const commands: Command[] = [];
  const commandsFile = await dir.file(`${p}commands.txt`);
  if (commandsFile) {
    let n = 0;
    for (const line of (await commandsFile.readText()).split(/\r?\n/)) {
      n++;
      if (line.trim() === '') continue;
      const keys = parseKeysLine(line);
      if (!keys) {
        warnings.push(`commands.txt line ${n}: not a list of keys`);
        continue;
      }
      commands.push({ keys, text: keysText(keys), line: n });
    }
  }
  const testsStart = commands.findIndex((c) => commandRole(c.text) === 'tests-start');
  const agentCommands = commands.filter((c, i) => (testsStart === -1 || i < testsStart) && commandRole(c.text) !== 'plumbing');
  const testCommand = commands.find((c, i) => commandRole(c.text) === 'tests' && (testsStart === -1 || i > testsStart));

  let stepsFrom: 'episodes' | 'commands' | 'recording' | null = null;
  let steps: Step[] = (await episodeSteps(dir, entries, p)) ?? [];
  if (steps.length > 0) stepsFrom = 'episodes';
  else if (agentCommands.some((c) => commandRole(c.text) === 'agent' || commandRole(c.text) === 'setup')) {
    stepsFrom = 'commands';
    const events = agentCast?.recording.events ?? [];
    let cursor = 0;
    for (const c of agentCommands) {
      if (commandRole(c.text) === 'tests') continue; // tests run in the agent's shell: the verifier step below
      const k = findInput(events, cursor, c.text);
      const castTime = k === -1 ? null : events[k]![0];
      if (k !== -1) cursor = k + 1;
      steps.push(
        step({
          source: commandRole(c.text) === 'setup' ? 'environment' : 'agent',
          text: '',
          toolCalls: [keysCall(c.text)],
          castTime,
          timestamp: stamp(castTime),
        }),
      );
    }
  } else if (agentCast && agentCast.recording.events.length > 0) {
    stepsFrom = 'recording';
    steps = castSteps(agentCast.recording, agentCast.header);
  }
  let castLink: string | null = null;
  if (stepsFrom === 'episodes' && agentCast && recording) castLink = linkCastTimes(steps, agentCast.header, recording);
  else if (stepsFrom === 'commands') castLink = steps.some((s) => s.castTime !== null) ? 'input events' : null;
  else if (stepsFrom === 'recording') castLink = 'cast';

  if (steps.length === 0) {
    return errorItem(
      where,
      'no steps: this Terminal-Bench trial has no agent recording (sessions/agent.cast), no commands (commands.txt) and no agent logs (agent-logs/), so nothing the agent did can be imported; its results.json alone is a verdict, not a trajectory',
    );
  }

  // the test run: the verifier's step, replayed after the agent
  const postTest = await dir.file(`${p}panes/post-test.txt`);
  const postTestText = postTest ? (await postTest.readText()).replace(/\s+$/, '') : '';
  let testsTime: number | null = testsAt;
  if (testsTime === null && testCommand && agentCast) {
    const k = findInput(agentCast.recording.events, 0, testCommand.text);
    testsTime = k === -1 ? null : agentCast.recording.events[k]![0];
  }
  if (testCommand || testsCast || postTestText !== '') {
    steps.push(
      step({
        source: 'environment',
        text: 'The verifier runs the tests.',
        toolCalls: testCommand ? [keysCall(testCommand.text)] : [],
        observations: postTestText !== '' ? [{ toolCallId: null, content: tail(postTestText, 16_000), isError: false }] : [],
        castTime: testsTime,
        timestamp: str(r, 'test_started_at') ?? stamp(testsTime),
      }),
    );
  }
  steps = steps.map((s, index) => ({ ...s, index }));

  // verdicts
  const tests: Criterion[] = [];
  const components: Record<string, number> = {};
  if (isRecord(r.parser_results)) {
    for (const [name, status] of Object.entries(r.parser_results)) {
      const verdict = status === 'passed' ? true : status === 'failed' ? false : null;
      tests.push({ key: name, text: name, origin: 'verifier', verdict });
      if (verdict !== null) components[`test:${name}`] = verdict ? 1 : 0;
    }
  }
  const resolved = typeof r.is_resolved === 'boolean' ? r.is_resolved : null;
  const verifier: Verifier | null =
    resolved === null && tests.length === 0 ? null : { reward: resolved === null ? null : resolved ? 1 : 0, components };
  const failure = str(r, 'failure_mode');

  const inputTokens = asCount(r.total_input_tokens);
  const outputTokens = asCount(r.total_output_tokens);
  const usage =
    (inputTokens ?? 0) > 0 || (outputTokens ?? 0) > 0 ? { promptTokens: inputTokens, completionTokens: outputTokens, costUsd: null } : null;

  const meta = run.metadata;
  const dataset = str(meta, 'dataset_name');
  const trajectory: Trajectory = {
    format: 'terminal-bench',
    externalId: trialName,
    task: {
      name: taskId,
      instruction: str(r, 'instruction') ?? '',
      acceptanceCriteria: tests,
      environment: null,
      split: null,
      metadata: {
        ...(dataset ? { dataset: str(meta, 'dataset_version') ? `${dataset}@${str(meta, 'dataset_version')}` : dataset } : {}),
      },
    },
    policy: { model: str(meta, 'model_name'), checkpoint: null, agent: str(meta, 'agent_name') },
    steps,
    verifier,
    judgeScores: [],
    usage,
    terminal: recording,
    submission: null,
    exitStatus: failure && failure !== 'unset' && failure !== 'none' ? failure : null,
    startedAt: str(r, 'trial_started_at') ?? str(r, 'agent_started_at'),
    endedAt: str(r, 'trial_ended_at') ?? str(r, 'test_ended_at'),
    metadata: {
      ...(str(meta, 'run_id') ? { runId: str(meta, 'run_id') } : {}),
      ...(failure ? { failureMode: failure } : {}),
      ...(resolved === null ? {} : { isResolved: resolved }),
      timings: Object.fromEntries(
        ['agent_started_at', 'agent_ended_at', 'test_started_at', 'test_ended_at']
          .map((k) => [k, str(r, k)])
          .filter(([, v]) => v !== null && unixFromIso(v) !== null),
      ),
      stepsFrom,
      ...(castLink ? { castLink } : {}),
      ...(testsAt !== null ? { testsCastAt: testsAt } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
  return trajectoryItem(trajectory, where);
}

function tail(text: string, max: number): string {
  return text.length <= max ? text : `…\n${text.slice(text.length - max)}`;
}

/** The run a trial belongs to: the nearest folder above it (within the input) with run_metadata.json. */
async function runOf(dir: SourceDir, files: Set<string>, p: string, cache: Map<string, RunContext>): Promise<RunContext> {
  const parts = p.split('/').filter((s) => s !== '');
  for (let k = parts.length; k >= 0; k--) {
    const prefix = parts.slice(0, k).join('/');
    const rel = prefix === '' ? 'run_metadata.json' : `${prefix}/run_metadata.json`;
    if (!files.has(rel)) continue;
    const cached = cache.get(rel);
    if (cached) return cached;
    const read = await readJsonFile(dir, rel);
    const context: RunContext = { metadata: read?.ok && isRecord(read.value) ? read.value : null };
    cache.set(rel, context);
    return context;
  }
  return { metadata: null };
}

/** A run's own results.json, a trial's results.json or a run_metadata.json, given as a file: verdicts, not a trajectory. */
function looksLikeTbResults(head: string): boolean {
  const h = head.replace(/^\uFEFF/, '').trimStart();
  if (!h.startsWith('{')) return false;
  const results =
    /"trial_name"\s*:/.test(h) &&
    /"task_id"\s*:/.test(h) &&
    (/"is_resolved"\s*:/.test(h) || /"failure_mode"\s*:/.test(h) || /"instruction"\s*:/.test(h));
  const metadata = /"run_id"\s*:/.test(h) && /"agent_name"\s*:/.test(h) && /"n_attempts"\s*:/.test(h);
  return results || metadata;
}

/** A run folder whose trial folders were left out (only run_metadata.json / results.json / tb.lock). */
function isRunWithoutTrials(entries: string[]): boolean {
  return entries.includes('run_metadata.json') && findTbTrials(entries).length === 0;
}

export const terminalBenchImporter: Importer = {
  format: 'terminal-bench',
  detect(probe: Probe): boolean {
    if (probe.kind === 'dir') return findTbTrials(probe.entries).length > 0 || isRunWithoutTrials(probe.entries);
    return looksLikeTbResults(probe.head);
  },
  async *parse(input: ImportInput): AsyncIterable<ParsedItem> {
    if (input.kind !== 'dir') {
      yield errorItem(
        input.file.path,
        'a Terminal-Bench results.json holds verdicts, not what the agent did: import the run folder (or the trial folder, with its sessions/ and commands.txt) instead',
      );
      return;
    }
    const entries = await input.dir.list();
    const trials = findTbTrials(entries);
    if (trials.length === 0) {
      yield errorItem(
        input.dir.path,
        isRunWithoutTrials(entries)
          ? 'this Terminal-Bench run folder holds only the run summary (run_metadata.json, results.json) and no trial folders (<task>/<trial>/ with sessions/ and commands.txt): nothing the agent did can be imported'
          : 'no Terminal-Bench trial found (expected <task>/<trial>/results.json with sessions/ or commands.txt)',
      );
      return;
    }
    const files = new Set(entries);
    const cache = new Map<string, RunContext>();
    for (const p of trials) yield await parseTrial(input.dir, entries, p, await runOf(input.dir, files, p, cache));
  },
};
