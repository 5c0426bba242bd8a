import { readJsonDocument } from './chat-documents';
import { fileHead, looksLikeTau2 } from './chat-detect';
import { compact, dig, digString, emptyTrajectory } from './chat-fields';
import {
  contentText,
  convertItem,
  describe,
  expectArray,
  expectRecord,
  fail,
  firstText,
  idString,
  indexSteps,
  makeStep,
  reasoningOf,
  sumUsage,
  timestampOf,
  toolCallsOf,
  usageOf,
  type StepDraft,
} from './chat-messages';
import { slugKey, uniqueKeys } from './criteria';
import type { Importer, ParsedItem, SourceDir } from './importer';
import { errorItem } from './item';
import { joinPointer } from './json-pointer';
import { asCount, asNumber, isRecord, parseJson } from './parse-json';
import type { Criterion, Trajectory } from './trajectory';

/**
 * tau2-bench output: a results file `{ timestamp, info: { agent_info: { implementation, llm },
 * user_info, environment_info: { domain_name }, ... }, tasks: [Task], simulations: [SimulationRun] }`
 * (one trajectory per simulation), a single `SimulationRun` file `{ id, task_id, trial,
 * start_time, end_time, duration, termination_reason, agent_cost, user_cost, reward_info,
 * messages }`, or the directory format (`results.json` without simulations + `simulations/*.json`).
 *
 * Messages: assistant / user (both may carry flat `tool_calls: [{id, name, arguments}]`; the
 * user's act on the user's own device in some domains), tool (`id` = the call answered, `error`),
 * and `MultiToolMessage` (`{role: "tool", tool_messages: [...]}`). The verifier reward is
 * `reward_info.reward` with `reward_breakdown` as components; acceptance criteria come from the
 * task's evaluation criteria (expected actions, communicate info, NL and env assertions) with
 * the verdicts of `reward_info`, or from `reward_info` alone when the task is not in the file.
 */
export const tau2Importer: Importer = {
  format: 'tau2',
  detect(probe) {
    if (probe.kind === 'dir') {
      return probe.entries.includes('results.json') && probe.entries.some((e) => /^simulations\/[^/]+\.json$/.test(e));
    }
    const head = fileHead(probe);
    return head !== null && looksLikeTau2(head);
  },
  async *parse(input) {
    if (input.kind === 'dir') {
      yield* parseDir(input.dir);
      return;
    }
    const doc = await readJsonDocument(input.file);
    if (!doc.ok) {
      yield errorItem(doc.where, doc.message);
      return;
    }
    yield* parseRoot(doc.value, '');
  },
};

function* parseRoot(value: unknown, prefix: string): Iterable<ParsedItem> {
  if (Array.isArray(value)) {
    // a bare list of simulations (leaderboard submissions, `Results.simulations` saved alone)
    if (value.length === 0) {
      yield errorItem(prefix || '/', 'expected a list of tau2 simulations, found an empty list');
      return;
    }
    for (let i = 0; i < value.length; i++) {
      const pointer = joinPointer('', i);
      yield convertItem(prefix, pointer, () => convertSimulation(value[i], pointer, null, null));
    }
    return;
  }
  if (!isRecord(value)) {
    yield errorItem(prefix || '/', `expected a tau2 results or simulation object, found ${describe(value)}`);
    return;
  }
  if (!('simulations' in value) && ('termination_reason' in value || 'messages' in value || 'task_id' in value || 'ticks' in value)) {
    yield convertItem(prefix, '', () => convertSimulation(value, '', null, null));
    return;
  }
  if (value.simulations === undefined && Array.isArray(value.simulation_index)) {
    yield errorItem(
      prefix || '/',
      'this is the metadata file of a directory-format tau2 run (no simulations inside): import the run directory (results.json + simulations/) instead',
    );
    return;
  }
  if (!Array.isArray(value.simulations)) {
    yield errorItem(
      prefix ? `${prefix} /simulations` : '/simulations',
      value.simulations === undefined
        ? 'missing: expected an array of simulations'
        : `expected an array of simulations, found ${describe(value.simulations)}`,
    );
    return;
  }
  if (value.simulations.length === 0) {
    yield errorItem(prefix ? `${prefix} /simulations` : '/simulations', 'expected at least one simulation, found an empty list');
    return;
  }
  const context = runContext(value);
  for (let i = 0; i < value.simulations.length; i++) {
    const pointer = joinPointer('/simulations', i);
    const sim = value.simulations[i];
    yield convertItem(prefix, pointer, () => convertSimulation(sim, pointer, context.task(sim), context.info));
  }
}

interface RunContext {
  info: Record<string, unknown> | null;
  task(simulation: unknown): Record<string, unknown> | null;
}

function runContext(results: Record<string, unknown>): RunContext {
  const tasks = new Map<string, Record<string, unknown>>();
  if (Array.isArray(results.tasks)) {
    for (const t of results.tasks) {
      const id = isRecord(t) ? idString(t.id) : null;
      if (id !== null && isRecord(t)) tasks.set(id, t);
    }
  }
  return {
    info: isRecord(results.info) ? results.info : null,
    task: (sim) => {
      const id = isRecord(sim) ? idString(sim.task_id) : null;
      return id === null ? null : (tasks.get(id) ?? null);
    },
  };
}

async function* parseDir(dir: SourceDir): AsyncIterable<ParsedItem> {
  const meta = await dir.file('results.json');
  if (!meta) {
    yield errorItem('results.json', 'missing: a tau2 results directory needs results.json');
    return;
  }
  const parsed = parseJson(await meta.readText());
  if (!parsed.ok) {
    yield errorItem(`results.json line ${parsed.line}`, parsed.message);
    return;
  }
  const context = runContext(isRecord(parsed.value) ? parsed.value : {});
  const files = (await dir.list()).filter((e) => /^simulations\/[^/]+\.json$/.test(e));
  if (files.length === 0) {
    yield errorItem('simulations/', 'missing: expected simulation files (simulations/*.json) next to results.json');
    return;
  }
  for (const rel of files) {
    const file = await dir.file(rel);
    if (!file) continue;
    const sim = parseJson(await file.readText());
    if (!sim.ok) {
      yield errorItem(`${rel} line ${sim.line}`, sim.message);
      continue;
    }
    yield convertItem(rel, '', () => convertSimulation(sim.value, '', context.task(sim.value), context.info));
  }
}

function toolMessageStep(m: Record<string, unknown>, pointer: string): StepDraft {
  return makeStep('tool', {
    observations: [
      {
        toolCallId: idString(m.id) ?? idString(m.tool_call_id),
        content: contentText(m.content, joinPointer(pointer, 'content')),
        isError: m.error === true,
      },
    ],
    timestamp: timestampOf(m.timestamp),
  });
}

export function tau2MessagesToSteps(value: unknown, pointer: string): StepDraft[] {
  const messages = expectArray(value, pointer, 'an array of messages');
  const steps: StepDraft[] = [];
  messages.forEach((raw, i) => {
    const at = joinPointer(pointer, i);
    const m = expectRecord(raw, at, 'a message object');
    const role = m.role;
    const timestamp = timestampOf(m.timestamp);
    if (role === 'tool') {
      if (Array.isArray(m.tool_messages)) {
        m.tool_messages.forEach((tm, k) => {
          const tat = joinPointer(at, 'tool_messages', k);
          steps.push(toolMessageStep(expectRecord(tm, tat, 'a tool message object'), tat));
        });
      } else steps.push(toolMessageStep(m, at));
      return;
    }
    if (role !== 'assistant' && role !== 'user' && role !== 'system') {
      fail(
        joinPointer(at, 'role'),
        role === undefined
          ? 'missing: expected role assistant, user, tool or system'
          : `expected role assistant, user, tool or system, found ${JSON.stringify(role)}`,
      );
    }
    const text = contentText(m.content, joinPointer(at, 'content'));
    if (role === 'system') {
      steps.push(makeStep('system', { text, timestamp }));
      return;
    }
    const toolCalls = toolCallsOf(m.tool_calls, joinPointer(at, 'tool_calls'));
    if (role === 'assistant') {
      steps.push(makeStep('agent', { text, reasoning: reasoningOf(m), toolCalls, timestamp, usage: usageOf(m.usage, m.cost) }));
    } else {
      steps.push(makeStep('user', { text, toolCalls, timestamp }));
    }
  });
  return steps;
}

/**
 * A full-duplex (voice) simulation stored as ticks only (`messages: null`), flattened the way
 * tau2's own `SimulationRun.get_messages()` does: per tick the agent's chunk with its tool calls,
 * the agent's tool results, the user's chunk with its tool calls, the user's tool results. Chunks
 * without text or tool calls (silence, audio only) are dropped; consecutive text chunks of the
 * same speaker are one step (a space between chunks of different utterances).
 */
export function tau2TicksToSteps(value: unknown, pointer: string): StepDraft[] {
  const ticks = expectArray(value, pointer, 'an array of ticks');
  const steps: StepDraft[] = [];
  let open: { step: StepDraft; utterances: string } | null = null;
  const say = (source: 'agent' | 'user', chunk: unknown, calls: unknown, at: string, tickTime: string | null) => {
    const c = isRecord(chunk) ? chunk : {};
    const text = typeof c.content === 'string' ? c.content : '';
    const toolCalls = [
      ...toolCallsOf(c.tool_calls, joinPointer(at, source === 'agent' ? 'agent_chunk' : 'user_chunk', 'tool_calls')),
      ...toolCallsOf(calls, joinPointer(at, source === 'agent' ? 'agent_tool_calls' : 'user_tool_calls')),
    ];
    if (text === '' && toolCalls.length === 0) return;
    const utterances = Array.isArray(c.utterance_ids) ? c.utterance_ids.join(',') : '';
    if (open && open.step.source === source && toolCalls.length === 0 && open.step.toolCalls.length === 0) {
      const spacer = utterances !== open.utterances && !/\s$/.test(open.step.text) && !/^\s/.test(text) ? ' ' : '';
      open.step.text += spacer + text;
      open.utterances = utterances;
      return;
    }
    const step = makeStep(source, { text, toolCalls, timestamp: timestampOf(c.timestamp) ?? tickTime });
    steps.push(step);
    open = { step, utterances };
  };
  const results = (list: unknown, at: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((m, k) => {
      const tat = joinPointer(at, k);
      steps.push(toolMessageStep(expectRecord(m, tat, 'a tool message object'), tat));
      open = null;
    });
  };
  ticks.forEach((raw, i) => {
    const at = joinPointer(pointer, i);
    const tick = expectRecord(raw, at, 'a tick object');
    const time = timestampOf(tick.timestamp);
    say('agent', tick.agent_chunk, tick.agent_tool_calls, at, time);
    results(tick.agent_tool_results, joinPointer(at, 'agent_tool_results'));
    say('user', tick.user_chunk, tick.user_tool_calls, at, time);
    results(tick.user_tool_results, joinPointer(at, 'user_tool_results'));
  });
  return steps;
}

/** The user scenario instructions as text (a string, or tau2's structured instructions). */
function instructionsText(task: Record<string, unknown> | null): string | null {
  const instructions = dig(task, 'user_scenario', 'instructions');
  if (typeof instructions === 'string') return instructions;
  if (isRecord(instructions)) {
    const lines: string[] = [];
    const add = (label: string, key: string) => {
      const v = instructions[key];
      if (typeof v === 'string' && v.trim() !== '') lines.push(`${label}:\n${v}`);
    };
    add('Domain', 'domain');
    add('Reason for call', 'reason_for_call');
    add('Known info', 'known_info');
    add('Unknown info', 'unknown_info');
    add('Task instructions', 'task_instructions');
    if (lines.length > 0) return lines.join('\n');
  }
  return digString(task, 'ticket');
}

function callText(name: unknown, args: unknown): string {
  return `${typeof name === 'string' ? name : 'action'}(${args === undefined ? '' : JSON.stringify(args)})`;
}

function checks(rewardInfo: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const v = rewardInfo[key];
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

function verdictOf(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

function sameCall(a: unknown, b: unknown): boolean {
  return isRecord(a) && isRecord(b) && a.func_name === b.func_name && JSON.stringify(a.arguments) === JSON.stringify(b.arguments);
}

function criteriaFor(task: Record<string, unknown> | null, rewardInfo: Record<string, unknown>): Criterion[] {
  const actionChecks = checks(rewardInfo, 'action_checks');
  const communicateChecks = checks(rewardInfo, 'communicate_checks');
  const nlChecks = checks(rewardInfo, 'nl_assertions');
  const envChecks = checks(rewardInfo, 'env_assertions');
  const out: Criterion[] = [];
  const push = (keyText: string, text: string, origin: Criterion['origin'], verdict: boolean | null) => {
    if (text.trim() !== '') out.push({ key: slugKey(keyText), text, origin, verdict });
  };
  const criteria = dig(task, 'evaluation_criteria');
  if (isRecord(criteria)) {
    for (const a of Array.isArray(criteria.actions) ? criteria.actions.filter(isRecord) : []) {
      const check = actionChecks.find((c) => isRecord(c.action) && c.action.action_id === a.action_id);
      const who = a.requestor === 'user' ? ' (by the user)' : '';
      push(
        `action ${idString(a.action_id) ?? callText(a.name, a.arguments)}`,
        `Expected action${who}: ${callText(a.name, a.arguments)}`,
        'task',
        verdictOf(check?.action_match),
      );
    }
    for (const info of Array.isArray(criteria.communicate_info) ? criteria.communicate_info : []) {
      if (typeof info !== 'string') continue;
      const check = communicateChecks.find((c) => c.info === info);
      push(`communicate ${info}`, `Communicate: ${info}`, 'task', verdictOf(check?.met));
    }
    for (const assertion of Array.isArray(criteria.nl_assertions) ? criteria.nl_assertions : []) {
      if (typeof assertion !== 'string') continue;
      const check = nlChecks.find((c) => c.nl_assertion === assertion);
      push(assertion, assertion, 'task', verdictOf(check?.met));
    }
    for (const e of Array.isArray(criteria.env_assertions) ? criteria.env_assertions.filter(isRecord) : []) {
      const check = envChecks.find((c) => sameCall(c.env_assertion, e));
      push(
        `env ${callText(e.func_name, e.arguments)}`,
        `Environment assertion: ${callText(e.func_name, e.arguments)}`,
        'task',
        verdictOf(check?.met),
      );
    }
    return uniqueKeys(out);
  }
  // the task is not in the file: the checks in reward_info say what was verified
  for (const c of actionChecks) {
    const a = isRecord(c.action) ? c.action : {};
    push(
      `action ${idString(a.action_id) ?? callText(a.name, a.arguments)}`,
      `Expected action: ${callText(a.name, a.arguments)}`,
      'verifier',
      verdictOf(c.action_match),
    );
  }
  for (const c of communicateChecks)
    if (typeof c.info === 'string') push(`communicate ${c.info}`, `Communicate: ${c.info}`, 'verifier', verdictOf(c.met));
  for (const c of nlChecks) if (typeof c.nl_assertion === 'string') push(c.nl_assertion, c.nl_assertion, 'verifier', verdictOf(c.met));
  for (const c of envChecks) {
    const e = isRecord(c.env_assertion) ? c.env_assertion : {};
    push(
      `env ${callText(e.func_name, e.arguments)}`,
      `Environment assertion: ${callText(e.func_name, e.arguments)}`,
      'verifier',
      verdictOf(c.met),
    );
  }
  return uniqueKeys(out);
}

function rewardComponents(rewardInfo: Record<string, unknown>): Record<string, number> {
  const components: Record<string, number> = {};
  if (isRecord(rewardInfo.reward_breakdown)) {
    for (const [k, v] of Object.entries(rewardInfo.reward_breakdown)) {
      const n = asNumber(v);
      if (n !== null) components[k] = n;
    }
  }
  if (components.DB === undefined) {
    const db = asNumber(dig(rewardInfo, 'db_check', 'db_reward'));
    if (db !== null) components.DB = db;
  }
  return components;
}

function firstAssistantModel(messages: unknown): string | null {
  if (!Array.isArray(messages)) return null;
  for (const m of messages) {
    if (isRecord(m) && m.role === 'assistant') {
      const model = digString(m, 'raw_data', 'model');
      if (model) return model;
    }
  }
  return null;
}

export function convertSimulation(
  raw: unknown,
  pointer: string,
  task: Record<string, unknown> | null,
  info: Record<string, unknown> | null,
): Trajectory {
  const sim = expectRecord(raw, pointer, 'a tau2 simulation object');
  const taskId = idString(sim.task_id);
  if (taskId === null) {
    fail(
      joinPointer(pointer, 'task_id'),
      sim.task_id === undefined ? 'missing: expected the task id' : `expected the task id as a string, found ${describe(sim.task_id)}`,
    );
  }
  if (sim.reward_info !== undefined && sim.reward_info !== null) expectRecord(sim.reward_info, joinPointer(pointer, 'reward_info'));
  const rewardInfo = isRecord(sim.reward_info) ? sim.reward_info : null;
  if (rewardInfo && rewardInfo.reward !== undefined && rewardInfo.reward !== null && asNumber(rewardInfo.reward) === null) {
    fail(joinPointer(pointer, 'reward_info', 'reward'), `expected the reward as a number, found ${describe(rewardInfo.reward)}`);
  }

  const onlyTicks = (sim.messages === undefined || sim.messages === null) && Array.isArray(sim.ticks);
  const steps: StepDraft[] = onlyTicks
    ? tau2TicksToSteps(sim.ticks, joinPointer(pointer, 'ticks'))
    : tau2MessagesToSteps(sim.messages, joinPointer(pointer, 'messages'));
  if (steps.length === 0) {
    fail(
      joinPointer(pointer, onlyTicks ? 'ticks' : 'messages'),
      onlyTicks
        ? `no steps: the ${(sim.ticks as unknown[]).length} ticks of this full-duplex simulation carry no text and no tool calls (audio only?), so there is nothing to import`
        : 'no steps: this simulation has no messages, so there is nothing to import',
    );
  }

  const agentUsage = sumUsage(steps.filter((s) => s.source === 'agent').map((s) => s.usage));
  const agentCost = asCount(sim.agent_cost);
  const usage =
    agentCost !== null
      ? { promptTokens: agentUsage?.promptTokens ?? null, completionTokens: agentUsage?.completionTokens ?? null, costUsd: agentCost }
      : agentUsage;
  const trial = asNumber(sim.trial);
  const termination = sim.termination_reason;

  return {
    ...emptyTrajectory('tau2', taskId),
    externalId: idString(sim.id),
    task: {
      name: taskId,
      instruction: instructionsText(task) ?? firstText(steps, 'user'),
      acceptanceCriteria: criteriaFor(task, rewardInfo ?? {}),
      environment: digString(info, 'environment_info', 'domain_name'),
      split: null,
      metadata: compact({
        purpose: digString(task, 'description', 'purpose'),
        persona: digString(task, 'user_scenario', 'persona'),
        reward_basis: dig(task, 'evaluation_criteria', 'reward_basis') ?? dig(rewardInfo, 'reward_basis'),
      }),
    },
    policy: {
      model: digString(info, 'agent_info', 'llm') ?? firstAssistantModel(sim.messages),
      checkpoint: null,
      agent: digString(info, 'agent_info', 'implementation'),
    },
    steps: indexSteps(steps),
    verifier: rewardInfo ? { reward: asNumber(rewardInfo.reward), components: rewardComponents(rewardInfo) } : null,
    usage,
    exitStatus: typeof termination === 'string' && termination !== '' ? termination : null,
    startedAt: timestampOf(sim.start_time),
    endedAt: timestampOf(sim.end_time),
    metadata: compact({
      trial: trial ?? undefined,
      seed: asNumber(sim.seed),
      duration_s: asNumber(sim.duration),
      user_cost: asCount(sim.user_cost),
      user_model: digString(info, 'user_info', 'llm'),
      mode: digString(sim, 'mode'),
      ticks: onlyTicks ? (sim.ticks as unknown[]).length : undefined,
    }),
  };
}
