import { atifInstruction, atifModel, atifSteps, atifUsage, criteriaFromMetadata, parseAtifText, type AtifDocument } from './atif';
import { castSteps, parseCast, type CastHeader } from './asciinema';
import { linkCastTimes } from './cast-times';
import { uniqueKeys } from './criteria';
import { findTbTrials, readJsonFile, terminalBenchImporter } from './terminal-bench';
import type { ImportInput, Importer, ParsedItem, Probe, SourceDir } from './importer';
import { baseName, errorItem, trajectoryItem } from './item';
import { asCount, asNumber, asString, isRecord } from './parse-json';
import type { Criterion, JudgeScore, Step, TerminalRecording, Trajectory, Usage, Verifier } from './trajectory';

/**
 * Harbor trial directories (Harbor / Terminal-Bench 2 runs). Layout of one trial:
 *
 *   config.json                TrialConfig: task {path | name, git_url}, agent {name, model_name}, environment {type}, trial_name
 *   result.json                TrialResult: task_name, trial_name, agent_info {name, version, model_info {name, provider}},
 *                              agent_result {n_input_tokens, n_output_tokens, cost_usd}, verifier_result {rewards},
 *                              exception_info {exception_type}, started_at, finished_at, source
 *   agent/trajectory.json      ATIF (see atif.ts) -> steps
 *   agent/*.cast               asciinema recording (usually agent/recording.cast) -> terminal
 *   verifier/reward.txt        a scalar reward
 *   verifier/reward.json       flat {name: number}; see `rewardFromObject`
 *   verifier/ctrf.json         CTRF test report -> one criterion per test (else pytest output in verifier/test-stdout.txt)
 *   verifier/reward-details.json  per-criterion details; entries with a reasoning become judge scores
 *
 * A job directory (`<job>/<trial>/...`) yields one trajectory per trial, in name order.
 * Missing or unreadable optional parts (cast, rewards, test output) do not fail the trial:
 * they are listed in `metadata.warnings`. A broken agent/trajectory.json fails the trial.
 *
 * castTime: linked by `linkCastTimes` (cast-times.ts).
 */

type Json = Record<string, unknown>;

/**
 * '' for a trial directory, or the `<trial>/` prefixes (one level down, sorted) of a job
 * directory. A trial has agent/trajectory.json, or config.json/result.json next to agent/ or
 * verifier/ content. One pass over the entries (job listings can be large).
 */
export function findTrials(entries: string[]): string[] {
  const files = new Set<string>();
  const withLogs = new Set<string>();
  for (const e of entries) {
    files.add(e);
    const parts = e.split('/');
    if (parts[0] === 'agent' || parts[0] === 'verifier') withLogs.add('');
    if (parts.length >= 3 && (parts[1] === 'agent' || parts[1] === 'verifier')) withLogs.add(`${parts[0]}/`);
  }
  const isTrial = (p: string) =>
    files.has(`${p}agent/trajectory.json`) || ((files.has(`${p}config.json`) || files.has(`${p}result.json`)) && withLogs.has(p));
  if (isTrial('')) return [''];
  return [...withLogs].filter((p) => p !== '' && isTrial(p)).sort();
}

/**
 * reward.json / verifier_result.rewards: every numeric (or boolean, as 1/0) entry is a
 * component; reward = the `reward` key when present, else the only value, else the mean.
 */
export function rewardFromObject(obj: Json): Verifier {
  const components: Record<string, number> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number' && Number.isFinite(v)) components[k] = v;
    else if (typeof v === 'boolean') components[k] = v ? 1 : 0;
  }
  const values = Object.values(components);
  const reward =
    components.reward !== undefined ? components.reward : values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  return { reward, components };
}

export interface TestResult {
  name: string;
  /** true = passed, false = failed/error, null = skipped or other */
  verdict: boolean | null;
}

/** CTRF report (`{results: {tests: [{name, status}]}}`). */
export function testsFromCtrf(value: unknown): TestResult[] | null {
  if (!isRecord(value) || !isRecord(value.results) || !Array.isArray(value.results.tests)) return null;
  const tests: TestResult[] = [];
  for (const t of value.results.tests) {
    if (!isRecord(t) || typeof t.name !== 'string' || t.name === '') continue;
    const status = typeof t.status === 'string' ? t.status.toLowerCase() : '';
    tests.push({ name: t.name, verdict: status === 'passed' ? true : status === 'failed' ? false : null });
  }
  return tests;
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const PYTEST_STATUS = '(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)';
const SUMMARY_LINE = new RegExp(`^${PYTEST_STATUS}\\s+(?:\\[\\d+\\]\\s+)?(\\S+::\\S+)`);
const VERBOSE_LINE = new RegExp(`^(\\S+::\\S+)\\s+${PYTEST_STATUS}\\b`);

/** pytest console output: `-rA` summary lines (`PASSED tests/t.py::test_x`) and `-v` lines (`tests/t.py::test_x PASSED [50%]`). */
export function testsFromPytest(text: string): TestResult[] {
  const byName = new Map<string, boolean | null>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(ANSI, '').trim();
    let name: string | undefined;
    let status: string | undefined;
    const summary = SUMMARY_LINE.exec(line);
    if (summary) [, status, name] = summary;
    else {
      const verbose = VERBOSE_LINE.exec(line);
      if (verbose) [, name, status] = verbose;
    }
    if (!name || !status) continue;
    byName.set(name, status === 'PASSED' || status === 'XPASS' ? true : status === 'FAILED' || status === 'ERROR' ? false : null);
  }
  return [...byName].map(([name, verdict]) => ({ name, verdict }));
}

/** reward-details.json entries that carry a reasoning (LLM-judge criteria) become judge scores. */
export function judgeScoresFromDetails(value: unknown): JudgeScore[] {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [isRecord(v) ? (asString(v.name) ?? asString(v.criterion) ?? asString(v.id) ?? `criterion ${i + 1}`) : '', v])
    : isRecord(value)
      ? Object.entries(isRecord(value.criteria) ? value.criteria : value)
      : [];
  const scores: JudgeScore[] = [];
  for (const [name, v] of entries) {
    if (!isRecord(v) || name === '') continue;
    const explanation = asString(v.reasoning) ?? asString(v.explanation) ?? asString(v.rationale);
    const judge = asString(v.judge) ?? asString(v.model);
    if (explanation === null && judge === null) continue;
    const raw = v.score ?? v.value ?? v.reward;
    scores.push({
      judge: name,
      score: typeof raw === 'boolean' ? (raw ? 1 : 0) : asNumber(raw),
      label: asString(v.verdict) ?? asString(v.label) ?? (typeof raw === 'string' ? raw : null),
      explanation,
    });
  }
  return scores;
}

function pick(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

const str = (obj: unknown, ...path: string[]) => {
  const v = pick(obj, ...path);
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};

function findCast(entries: string[], p: string): string | null {
  const casts = entries.filter((e) => e.startsWith(p) && e.toLowerCase().endsWith('.cast'));
  return casts.find((e) => e === `${p}agent/recording.cast`) ?? casts.find((e) => e.startsWith(`${p}agent/`)) ?? casts[0] ?? null;
}

async function parseTrial(dir: SourceDir, entries: string[], p: string): Promise<ParsedItem> {
  const where = p === '' ? dir.path : p.slice(0, -1);
  const warnings: string[] = [];
  const optional = async (rel: string): Promise<unknown> => {
    const r = await readJsonFile(dir, `${p}${rel}`);
    if (r === null) return undefined;
    if (!r.ok) {
      warnings.push(r.message);
      return undefined;
    }
    return r.value;
  };
  const config = await optional('config.json');
  const result = await optional('result.json');

  let doc: AtifDocument | null = null;
  const trajFile = await dir.file(`${p}agent/trajectory.json`);
  if (trajFile) {
    const parsed = parseAtifText(await trajFile.readText());
    if (!parsed.ok) return errorItem(`${p}agent/trajectory.json ${parsed.where}`, `${p}agent/trajectory.json: ${parsed.message}`);
    doc = parsed.doc;
  }
  if (!doc && result === undefined)
    return errorItem(where, 'not a readable Harbor trial: no agent/trajectory.json and no readable result.json');

  // terminal recording
  let terminal: TerminalRecording | null = null;
  let header: CastHeader | null = null;
  const castPath = findCast(entries, p);
  if (castPath) {
    const file = await dir.file(castPath);
    if (file) {
      const cast = await parseCast(file);
      if (cast.ok) {
        terminal = cast.recording;
        header = cast.header;
      } else warnings.push(`${castPath}: ${cast.message}`);
    }
  }

  const steps: Step[] = doc ? atifSteps(doc) : terminal && header ? castSteps(terminal, header) : [];
  const castLink = doc && terminal && header ? linkCastTimes(steps, header, terminal) : terminal ? 'cast' : null;

  // verifier: reward.txt, reward.json, else result.json's verifier_result.rewards
  let verifier: Verifier | null = null;
  let rewardSource: string | null = null;
  const rewardTxt = await dir.file(`${p}verifier/reward.txt`);
  if (rewardTxt) {
    const text = (await rewardTxt.readText()).trim();
    const value = Number(text);
    if (text !== '' && Number.isFinite(value)) {
      verifier = { reward: value, components: {} };
      rewardSource = 'verifier/reward.txt';
    } else warnings.push(`verifier/reward.txt: not a number: ${JSON.stringify(text.slice(0, 40))}`);
  }
  if (!verifier) {
    const rewardJson = await optional('verifier/reward.json');
    if (isRecord(rewardJson)) {
      verifier = rewardFromObject(rewardJson);
      rewardSource = 'verifier/reward.json';
    } else if (rewardJson !== undefined) warnings.push('verifier/reward.json: expected an object of named numbers');
  }
  if (!verifier) {
    const rewards = pick(result, 'verifier_result', 'rewards');
    if (isRecord(rewards)) {
      verifier = rewardFromObject(rewards);
      rewardSource = 'result.json';
    }
  }

  // per-test verdicts: CTRF, else pytest output
  let tests: TestResult[] | null = null;
  const ctrfPath =
    entries.find((e) => e === `${p}verifier/ctrf.json`) ??
    entries.find((e) => e.startsWith(`${p}verifier/`) && /ctrf[^/]*\.json$/i.test(e));
  if (ctrfPath) {
    const ctrf = await optional(ctrfPath.slice(p.length));
    if (ctrf !== undefined) {
      tests = testsFromCtrf(ctrf);
      if (tests === null) warnings.push(`${ctrfPath.slice(p.length)}: not a CTRF report (no results.tests)`);
    }
  }
  if (!tests) {
    const stdout = await dir.file(`${p}verifier/test-stdout.txt`);
    if (stdout) tests = testsFromPytest(await stdout.readText());
  }
  const verifierCriteria: Criterion[] = (tests ?? []).map((t) => ({ key: t.name, text: t.name, origin: 'verifier', verdict: t.verdict }));
  if (tests && tests.length > 0) {
    verifier ??= { reward: null, components: {} };
    for (const t of tests) if (t.verdict !== null) verifier.components[`test:${t.name}`] = t.verdict ? 1 : 0;
  }

  const details = await optional('verifier/reward-details.json');
  const judgeScores = details === undefined ? [] : judgeScoresFromDetails(details);

  // task, policy, usage
  const taskPath = str(config, 'task', 'path');
  const trialName = str(result, 'trial_name') ?? str(config, 'trial_name') ?? (p === '' ? baseName(dir.path) : p.slice(0, -1));
  const extraTask = doc?.extra ? (str(doc.extra, 'task_name') ?? str(doc.extra, 'task_id')) : null;
  const taskName =
    str(result, 'task_name') ??
    str(config, 'task', 'name') ??
    (taskPath ? baseName(taskPath) : null) ??
    extraTask ??
    trialName ??
    'harbor-trial';
  const provider = str(result, 'agent_info', 'model_info', 'provider');
  const infoModel = str(result, 'agent_info', 'model_info', 'name');
  const model =
    str(config, 'agent', 'model_name') ??
    (infoModel ? (provider ? `${provider}/${infoModel}` : infoModel) : null) ??
    (doc ? atifModel(doc) : null);
  const agent = str(config, 'agent', 'name') ?? str(result, 'agent_info', 'name') ?? doc?.agent.name ?? null;

  let usage: Usage | null = doc ? atifUsage(doc) : null;
  if (!usage && isRecord(pick(result, 'agent_result'))) {
    const u = {
      promptTokens: asCount(pick(result, 'agent_result', 'n_input_tokens')),
      completionTokens: asCount(pick(result, 'agent_result', 'n_output_tokens')),
      costUsd: asCount(pick(result, 'agent_result', 'cost_usd')),
    };
    if (u.promptTokens !== null || u.completionTokens !== null || u.costUsd !== null) usage = u;
  }

  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const trajectory: Trajectory = {
    format: 'harbor',
    externalId: trialName,
    task: {
      name: taskName,
      instruction: doc ? atifInstruction(doc) : '',
      acceptanceCriteria: uniqueKeys([
        ...criteriaFromMetadata(pick(result, 'task_metadata') ?? pick(result, 'metadata')),
        ...(doc ? criteriaFromMetadata(doc.extra) : []),
        ...verifierCriteria,
      ]),
      environment: str(config, 'environment', 'type'),
      split: null,
      metadata: {
        ...(taskPath ? { path: taskPath } : {}),
        ...(str(config, 'task', 'git_url') ? { gitUrl: str(config, 'task', 'git_url') } : {}),
        ...(str(result, 'source') ? { dataset: str(result, 'source') } : {}),
        ...(str(result, 'task_checksum') ? { checksum: str(result, 'task_checksum') } : {}),
      },
    },
    policy: { model, checkpoint: null, agent },
    steps,
    verifier,
    judgeScores,
    usage,
    terminal,
    submission: null,
    exitStatus: str(result, 'exception_info', 'exception_type'),
    startedAt: str(result, 'started_at') ?? stamps[0] ?? null,
    endedAt: str(result, 'finished_at') ?? stamps[stamps.length - 1] ?? null,
    metadata: {
      ...(doc ? { atifSchemaVersion: doc.schema_version, ...(doc.agent.version ? { agentVersion: doc.agent.version } : {}) } : {}),
      ...(str(result, 'exception_info', 'exception_message')
        ? { exceptionMessage: str(result, 'exception_info', 'exception_message') }
        : {}),
      ...(castPath && terminal ? { castPath: castPath.slice(p.length), castLink } : {}),
      ...(rewardSource ? { rewardSource } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
  return trajectoryItem(trajectory, where);
}

export const harborImporter: Importer = {
  format: 'harbor',
  detect(probe: Probe): boolean {
    // a Terminal-Bench 1.x run is Harbor's predecessor's output: `--format harbor` reads it too
    return probe.kind === 'dir' && (findTrials(probe.entries).length > 0 || findTbTrials(probe.entries).length > 0);
  },
  async *parse(input: ImportInput): AsyncIterable<ParsedItem> {
    if (input.kind !== 'dir') {
      yield errorItem(input.file.path, 'Harbor expects a trial (or job) directory, not a single file');
      return;
    }
    const entries = await input.dir.list();
    const trials = findTrials(entries);
    if (trials.length === 0 && findTbTrials(entries).length > 0) {
      yield* terminalBenchImporter.parse(input);
      return;
    }
    if (trials.length === 0) {
      yield errorItem(input.dir.path, 'no Harbor trial found (expected config.json/result.json with agent/ or verifier/)');
      return;
    }
    for (const p of trials) yield await parseTrial(input.dir, entries, p);
  },
};
