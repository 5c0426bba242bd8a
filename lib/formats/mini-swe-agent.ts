import { looksLikeMiniSweAgent } from './chat-detect';
import { asText, compact, dig, digString, emptyTrajectory, stringList } from './chat-fields';
import {
  contentText,
  expectArray,
  expectRecord,
  idString,
  indexSteps,
  makeStep,
  reasoningOf,
  roleOf,
  sumUsage,
  timestampOf,
  toolCallsOf,
  usageOf,
  type StepDraft,
} from './chat-messages';
import { criteriaFromTexts } from './criteria';
import type { Importer } from './importer';
import { jsonFileImporter } from './json-file-importer';
import { baseName } from './item';
import { joinPointer } from './json-pointer';
import { asCount, isRecord } from './parse-json';
import type { ToolCall, Trajectory } from './trajectory';

/**
 * mini-swe-agent trajectories (`*.traj.json`, `trajectory_format: "mini-swe-agent-1"` for v1,
 * `"mini-swe-agent-1.1"` for v2): `{ info: { exit_status, submission, model_stats: { instance_cost,
 * api_calls }, config: { agent, model: { model_name }, environment, ... }, mini_version },
 * messages: [...], trajectory_format }`.
 *
 * Messages are OpenAI-style. v1 is text-only: the agent writes one ```bash block and the
 * harness answers as `user` (`<returncode>..</returncode><output>..</output>`); v2 adds an
 * `extra` field (`actions`, `cost`, `response.usage`, `timestamp`, `returncode`), native tool
 * calls answered by `tool` messages, and a final `exit` message. The first user message is the
 * task; later harness `user` messages are observations (a tool step answering the pending
 * action) or, for format errors and limits, `environment` steps.
 */
export const miniSweAgentImporter: Importer = jsonFileImporter({
  format: 'mini-swe-agent',
  fileLabel: 'a mini-swe-agent .traj.json file',
  looksLike: looksLikeMiniSweAgent,
  convert: convertMiniSweAgent,
});

const actionBlock = /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g;

function textActions(content: string): ToolCall[] {
  return [...content.matchAll(actionBlock)].map((m) => ({ id: null, name: 'bash', arguments: { command: (m[1] ?? '').trim() } }));
}

function extraActions(extra: Record<string, unknown>): ToolCall[] {
  if (!Array.isArray(extra.actions)) return [];
  return extra.actions
    .filter((a): a is Record<string, unknown> => isRecord(a) && typeof a.command === 'string')
    .map((a) => ({ id: idString(a.tool_call_id), name: 'bash', arguments: { command: a.command } }));
}

function isObservationText(content: string): boolean {
  return /^\s*(<returncode>|<output>|Observation:|<exception>)/.test(content);
}

export function convertMiniSweAgent(value: unknown, path: string): Trajectory {
  const root = expectRecord(value, '', 'a mini-swe-agent trajectory object');
  const messages = expectArray(root.messages, '/messages', 'an array of messages');
  if (root.info !== undefined && root.info !== null) expectRecord(root.info, '/info');
  const info = isRecord(root.info) ? root.info : {};
  const config = isRecord(info.config) ? info.config : {};

  const steps: StepDraft[] = [];
  let taskText: string | null = null;
  // calls of the latest agent step still waiting for an observation
  let pending: ToolCall[] = [];
  let exitExtra: Record<string, unknown> = {};

  messages.forEach((raw, i) => {
    const at = joinPointer('/messages', i);
    const m = expectRecord(raw, at, 'a message object');
    const role = roleOf(m, at);
    const extra = isRecord(m.extra) ? m.extra : {};
    const text = contentText(m.content, joinPointer(at, 'content'));
    const timestamp = timestampOf(extra.timestamp ?? m.timestamp);

    if (role === 'system') {
      steps.push(makeStep('system', { text, timestamp }));
    } else if (role === 'assistant') {
      let toolCalls = toolCallsOf(m.tool_calls, joinPointer(at, 'tool_calls'));
      if (toolCalls.length === 0) toolCalls = extraActions(extra);
      if (toolCalls.length === 0) toolCalls = textActions(text);
      const response = dig(extra, 'response');
      steps.push(
        makeStep('agent', {
          text,
          reasoning: reasoningOf(m),
          toolCalls,
          timestamp,
          usage: usageOf(dig(response, 'usage') ?? m.usage, extra.cost),
        }),
      );
      pending = [...toolCalls];
    } else if (role === 'tool') {
      const id = idString(m.tool_call_id);
      pending = pending.filter((c) => c.id !== id);
      steps.push(
        makeStep('tool', {
          observations: [{ toolCallId: id, content: text, isError: typeof extra.exception_info === 'string' }],
          timestamp,
        }),
      );
    } else if (role === 'user' && taskText === null) {
      taskText = text;
      steps.push(makeStep('user', { text, timestamp }));
    } else if (role === 'user') {
      const isObservation =
        extra.returncode !== undefined ||
        extra.raw_output !== undefined ||
        (pending.length > 0 && extra.interrupt_type === undefined && isObservationText(text));
      const timedOut = pending.length > 0 && /^\s*The last command/.test(text) && /timed out/.test(text);
      if (isObservation || timedOut) {
        const call = pending.shift();
        steps.push(
          makeStep('tool', {
            observations: [{ toolCallId: call?.id ?? null, content: text, isError: timedOut || typeof extra.exception_info === 'string' }],
            timestamp,
          }),
        );
      } else {
        pending = [];
        steps.push(makeStep('environment', { text, timestamp }));
      }
    } else {
      // `exit` (v2 final message) and anything else the harness adds
      if (role === 'exit') exitExtra = extra;
      pending = [];
      steps.push(makeStep('environment', { text, timestamp }));
    }
  });

  const taskName = digString(root, 'instance_id') ?? digString(info, 'instance_id') ?? baseName(path, '.traj.json', '.json');
  const stepUsage = sumUsage(steps.map((s) => s.usage));
  const cost = asCount(dig(info, 'model_stats', 'instance_cost'));
  const usage =
    stepUsage || cost !== null
      ? {
          promptTokens: stepUsage?.promptTokens ?? null,
          completionTokens: stepUsage?.completionTokens ?? null,
          costUsd: cost ?? stepUsage?.costUsd ?? null,
        }
      : null;
  const exit = info.exit_status ?? exitExtra.exit_status;
  const submission = info.submission ?? exitExtra.submission;
  const timestamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);

  return {
    ...emptyTrajectory('mini-swe-agent', taskName),
    externalId: digString(root, 'instance_id') ?? digString(info, 'instance_id'),
    task: {
      name: taskName,
      instruction: taskText ?? '',
      acceptanceCriteria: criteriaFromTexts(stringList(dig(root, 'FAIL_TO_PASS') ?? dig(info, 'FAIL_TO_PASS')), 'task'),
      environment: digString(config, 'environment', 'image') ?? digString(config, 'environment', 'container_image'),
      split: null,
      metadata: {},
    },
    policy: {
      model: digString(config, 'model', 'model_name') ?? digString(config, 'model', 'model'),
      checkpoint: null,
      agent: 'mini-swe-agent',
    },
    steps: indexSteps(steps),
    usage,
    submission: submission === undefined || submission === null || submission === '' ? null : asText(submission),
    exitStatus: exit === undefined || exit === null ? null : asText(exit),
    startedAt: timestamps[0] ?? null,
    endedAt: timestamps.length > 1 ? (timestamps[timestamps.length - 1] ?? null) : null,
    metadata: compact({
      trajectory_format: digString(root, 'trajectory_format'),
      mini_version: digString(info, 'mini_version'),
      api_calls: asCount(dig(info, 'model_stats', 'api_calls')),
      agent_type: digString(config, 'agent_type'),
      model_type: digString(config, 'model_type'),
      environment_type: digString(config, 'environment_type'),
    }),
  };
}
