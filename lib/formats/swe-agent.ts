import { looksLikeSweAgent } from './chat-detect';
import { asText, compact, dig, digString, emptyTrajectory, objectOrJson, stringList } from './chat-fields';
import {
  contentText,
  expectArray,
  expectRecord,
  fail,
  idString,
  indexSteps,
  makeStep,
  optionalString,
  reasoningOf,
  toolCallsOf,
  type StepDraft,
} from './chat-messages';
import { criteriaFromTexts } from './criteria';
import type { Importer } from './importer';
import { jsonFileImporter } from './json-file-importer';
import { baseName } from './item';
import { joinPointer } from './json-pointer';
import { asCount, isRecord } from './parse-json';
import type { ToolCall, Trajectory, Usage } from './trajectory';

/**
 * SWE-agent `.traj` files: `{ trajectory: [{ action, observation, response, thought, state,
 * execution_time, query }], history: [{ role, content, message_type, agent, is_demo, tool_calls }],
 * info: { exit_status, submission, model_stats: { instance_cost, tokens_sent, tokens_received,
 * api_calls }, ... }, replay_config: "<json>", environment }`.
 *
 * Mapping: the first non-demo system / user history messages become the system prompt and the
 * task step; every trajectory entry becomes an agent step followed by a tool step carrying the
 * observation. SWE-agent's `thought` is the model's visible discussion (the response minus the
 * action), so it is the step text; the raw `response` replaces it only when it says more than
 * thought + action. Reasoning is the hidden thinking (`thinking_blocks`) when the run kept it. Function-calling runs take the call id and parsed
 * arguments from the matching history message; text-mode actions become a call named after
 * the command's first word with the action string as its arguments.
 */
export const sweAgentImporter: Importer = jsonFileImporter({
  format: 'swe-agent',
  fileLabel: 'a SWE-agent .traj file',
  looksLike: looksLikeSweAgent,
  convert: convertSweAgent,
});

interface HistoryMessage {
  role: string;
  content: string;
  action: string | null;
  toolCalls: ToolCall[];
  reasoning: string | null;
}

function readHistory(value: unknown, pointer: string): HistoryMessage[] {
  if (value === undefined || value === null) return [];
  const items = expectArray(value, pointer, 'an array of history messages');
  const out: HistoryMessage[] = [];
  items.forEach((raw, i) => {
    const at = joinPointer(pointer, i);
    const item = expectRecord(raw, at, 'a history message object');
    if (item.is_demo === true) return;
    const role = typeof item.role === 'string' ? item.role : '';
    out.push({
      role,
      content: contentText(item.content, joinPointer(at, 'content')),
      action: typeof item.action === 'string' ? item.action : null,
      toolCalls: role === 'assistant' ? toolCallsOf(item.tool_calls, joinPointer(at, 'tool_calls')) : [],
      reasoning: reasoningOf(item),
    });
  });
  return out;
}

function firstWord(action: string): string {
  return action.trim().split(/\s+/)[0] || 'bash';
}

/** Whether the raw response is only the thought plus the action (then it is not repeated as text). */
function responseIsRedundant(response: string, thought: string, action: string): boolean {
  const r = response.trim();
  if (r === '' || r === thought.trim()) return true;
  if (thought.trim() === '' || !r.includes(thought.trim())) return false;
  const rest = r
    .replace(thought.trim(), '')
    .replace(/```[a-z]*\n?/g, '')
    .replace(/```/g, '')
    .trim();
  return rest === '' || rest === action.trim();
}

function modelStatsUsage(stats: unknown): Usage | null {
  if (!isRecord(stats)) return null;
  const usage = {
    promptTokens: asCount(stats.tokens_sent),
    completionTokens: asCount(stats.tokens_received),
    costUsd: asCount(stats.instance_cost),
  };
  return usage.promptTokens === null && usage.completionTokens === null && usage.costUsd === null ? null : usage;
}

function modelName(replay: Record<string, unknown> | null): string | null {
  const agent = dig(replay, 'agent');
  const direct = digString(agent, 'model', 'name') ?? digString(agent, 'model', 'model_name');
  if (direct) return direct;
  const configs = dig(agent, 'agent_configs');
  if (Array.isArray(configs))
    for (const c of configs) {
      const name = digString(c, 'model', 'name');
      if (name) return name;
    }
  return null;
}

export function convertSweAgent(value: unknown, path: string): Trajectory {
  const top = expectRecord(value, '', 'a SWE-agent trajectory object');
  // a retry-agent file without a chosen attempt merged in: read its last attempt
  const attempts = Array.isArray(top.attempts) ? top.attempts : [];
  const useAttempt = top.trajectory === undefined && attempts.length > 0;
  const base = useAttempt ? joinPointer('', 'attempts', attempts.length - 1) : '';
  const root = useAttempt ? expectRecord(attempts[attempts.length - 1], base, 'a SWE-agent attempt object') : top;
  const entries = expectArray(root.trajectory, joinPointer(base, 'trajectory'), 'an array of trajectory steps');
  if (root.info !== undefined && root.info !== null) expectRecord(root.info, joinPointer(base, 'info'));
  const info = isRecord(root.info) ? root.info : {};
  const history = readHistory(root.history, joinPointer(base, 'history'));
  const replay = objectOrJson(root.replay_config);
  const problem = isRecord(replay?.problem_statement) ? replay.problem_statement : {};
  const extra = isRecord(problem.extra_fields) ? problem.extra_fields : {};

  const taskName =
    digString(problem, 'id') ??
    digString(info, 'instance_id') ??
    digString(root, 'instance_id') ??
    baseName(path, '.traj.json', '.traj', '.json');

  const steps: StepDraft[] = [];
  const system = history.find((h) => h.role === 'system');
  if (system) steps.push(makeStep('system', { text: system.content }));
  const instance = history.find((h) => h.role === 'user');
  const problemText = digString(problem, 'text');
  if (instance) steps.push(makeStep('user', { text: instance.content }));
  else if (problemText) steps.push(makeStep('user', { text: problemText }));

  const assistants = history.filter((h) => h.role === 'assistant');
  let cursor = 0;
  entries.forEach((raw, i) => {
    const at = joinPointer(base, 'trajectory', i);
    const entry = expectRecord(raw, at, 'a trajectory step object');
    const action = optionalString(entry.action, joinPointer(at, 'action')) ?? '';
    const thought = optionalString(entry.thought, joinPointer(at, 'thought')) ?? '';
    const response = optionalString(entry.response, joinPointer(at, 'response')) ?? '';
    if (entry.observation !== undefined && entry.observation !== null && typeof entry.observation !== 'string') {
      fail(
        joinPointer(at, 'observation'),
        `expected the observation as a string, found ${Array.isArray(entry.observation) ? 'an array' : typeof entry.observation}`,
      );
    }
    const observation = typeof entry.observation === 'string' ? entry.observation : '';

    // the history message that produced this step (same action), for call ids and parsed arguments
    let matched: HistoryMessage | undefined;
    for (let k = cursor; k < assistants.length; k++) {
      const h = assistants[k];
      if (h && h.action !== null && h.action.trim() === action.trim()) {
        matched = h;
        cursor = k + 1;
        break;
      }
    }
    let toolCalls: ToolCall[] = toolCallsOf(entry.tool_calls, joinPointer(at, 'tool_calls'));
    if (toolCalls.length === 0 && matched) toolCalls = matched.toolCalls;
    if (toolCalls.length === 0 && action.trim() !== '') toolCalls = [{ id: null, name: firstWord(action), arguments: action }];
    const callIds = Array.isArray(entry.tool_call_ids) ? entry.tool_call_ids.map(idString) : [];
    if (toolCalls.length === 1 && toolCalls[0] && toolCalls[0].id === null && callIds[0]) toolCalls = [{ ...toolCalls[0], id: callIds[0] }];

    steps.push(
      makeStep('agent', {
        text: responseIsRedundant(response, thought, action) ? thought : response,
        reasoning: reasoningOf(entry) ?? matched?.reasoning ?? null,
        toolCalls,
      }),
    );
    if (action.trim() !== '' || observation !== '') {
      steps.push(makeStep('tool', { observations: [{ toolCallId: toolCalls[0]?.id ?? null, content: observation, isError: false }] }));
    }
  });

  const failToPass = stringList(extra.FAIL_TO_PASS ?? dig(root, 'FAIL_TO_PASS') ?? dig(info, 'FAIL_TO_PASS'));
  const exit = info.exit_status;
  const submission = info.submission;
  const resolved = info.resolved;
  const review = info.review;

  return {
    ...emptyTrajectory('swe-agent', taskName),
    externalId: taskName,
    task: {
      name: taskName,
      instruction: problemText ?? instance?.content ?? '',
      acceptanceCriteria: criteriaFromTexts(failToPass, 'task'),
      environment: digString(replay, 'env', 'deployment', 'image'),
      split: null,
      metadata: compact({
        repo: digString(replay, 'env', 'repo', 'github_url') ?? digString(replay, 'env', 'repo', 'repo_name'),
        problem_statement_type: digString(problem, 'type'),
        github_url: digString(problem, 'github_url'),
      }),
    },
    policy: { model: modelName(replay), checkpoint: null, agent: 'swe-agent' },
    steps: indexSteps(steps),
    verifier: typeof resolved === 'boolean' ? { reward: resolved ? 1 : 0, components: {} } : null,
    usage: modelStatsUsage(info.model_stats),
    submission: submission === undefined || submission === null || submission === '' ? null : asText(submission),
    exitStatus: exit === undefined || exit === null ? null : asText(exit),
    metadata: compact({
      api_calls: asCount(dig(info, 'model_stats', 'api_calls')),
      environment_name: digString(root, 'environment'),
      swe_agent_version: digString(info, 'swe_agent_version'),
      swe_agent_hash: digString(info, 'swe_agent_hash'),
      swe_rex_version: digString(info, 'swe_rex_version'),
      review: isRecord(review) ? review : undefined,
      attempts: attempts.length > 0 ? attempts.length : undefined,
      best_attempt_idx: asCount(info.best_attempt_idx),
    }),
  };
}
