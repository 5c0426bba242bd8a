import { buildTrajectory } from './build-trajectory';
import { readObjectLines } from './chat-documents';
import { promptTaskName } from './chat-conversations';
import { compact } from './chat-fields';
import { indexSteps, makeStep, parseArguments, timestampOf, type StepDraft } from './chat-messages';
import { fileImporter, oneItemPerFile } from './file-importer';
import type { Importer } from './importer';
import { trajectoryItem } from './item';
import { asCount, isRecord, parseJson } from './parse-json';
import type { Observation, ToolCall } from './trajectory';

/**
 * OpenAI Codex CLI session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).
 * Each line is a `RolloutLine` (codex-rs/protocol/src/protocol.rs): `{timestamp, type, payload}`
 * with type
 *
 *   session_meta   {id, timestamp, cwd, originator, cli_version, instructions?, git?}
 *   turn_context   {cwd, approval_policy, sandbox_policy, model, effort, ...}   (the model of the turns after it)
 *   response_item  a Responses API item (codex-rs/protocol/src/models.rs ResponseItem):
 *                  message {role, content: [input_text | output_text | input_image]}, reasoning {summary, content},
 *                  function_call {name, arguments: "<json>", call_id}, function_call_output {call_id, output},
 *                  custom_tool_call {name, input, call_id} / custom_tool_call_output, local_shell_call
 *                  {call_id, action: {command: [...]}}, web_search_call {action}
 *   event_msg      UI events; `token_count` gives the usage (the others repeat the response items; a
 *                  rollout without response items is read from its user_message / agent_message events)
 *   compacted      {message}: a summary replacing earlier history
 *
 * Older rollouts wrote the session meta as the bare first line and bare response items after it
 * (plus `{record_type: "state"}` lines): read too. Calls and outputs are linked by `call_id`; a
 * function output that is Codex's JSON envelope `{output, metadata: {exit_code}}` is unwrapped
 * (a non-zero exit code is an error). The user turns Codex injects (`<environment_context>`,
 * `<user_instructions>`, AGENTS.md) are system steps; the first real user message is the task.
 * Policy: the turn context's model, agent `codex`.
 */

type Json = Record<string, unknown>;

export function looksLikeCodexRollout(head: string): boolean {
  if (!head.startsWith('{')) return false;
  const first = head.split('\n', 1)[0] ?? '';
  if (/"type"\s*:\s*"session_meta"/.test(first) && /"payload"\s*:/.test(first)) return true;
  if (/^\{"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(response_item|turn_context|event_msg|compacted)"\s*,\s*"payload"/.test(first))
    return true;
  // legacy: the bare session meta, then bare response items
  return (
    /"instructions"\s*:/.test(first) &&
    /"id"\s*:/.test(first) &&
    /\n\{"(type|record_type)"\s*:\s*"(message|reasoning|function_call|state)"/.test(head)
  );
}

const INJECTED = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>)/;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => {
      if (!isRecord(c)) return null;
      if (typeof c.text === 'string') return c.text;
      if (c.type === 'input_image') return '[image]';
      return null;
    })
    .filter((t): t is string => t !== null)
    .join('\n');
}

/** A function output: a string, Codex's `{output, metadata}` JSON envelope in a string, `{content, success}`, or content items. */
function outputOf(value: unknown): { content: string; isError: boolean } {
  if (typeof value === 'string') {
    const parsed = value.trimStart().startsWith('{') ? parseJson(value) : null;
    if (parsed?.ok && isRecord(parsed.value) && typeof parsed.value.output === 'string') {
      const exit = isRecord(parsed.value.metadata) ? asCount(parsed.value.metadata.exit_code) : null;
      return { content: parsed.value.output, isError: exit !== null && exit !== 0 };
    }
    return { content: value, isError: false };
  }
  if (isRecord(value)) {
    const content = typeof value.content === 'string' ? value.content : contentText(value.content);
    return { content, isError: value.success === false };
  }
  return { content: contentText(value), isError: false };
}

function reasoningText(item: Json): string {
  const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
  return parts
    .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : null))
    .filter((t): t is string => t !== null && t.trim() !== '')
    .join('\n\n');
}

export function codexTrajectory(lines: { line: number; value: Json }[], path: string) {
  const steps: StepDraft[] = [];
  let meta: Json | null = null;
  let model: string | null = null;
  let usage: { promptTokens: number | null; completionTokens: number | null; costUsd: null } | null = null;
  let pendingReasoning: string | null = null;
  let instruction = '';
  // rollouts that kept only the UI events (no response items): their user / agent messages
  const eventSteps: StepDraft[] = [];
  let responseItems = 0;

  const agentStep = (timestamp: string | null): StepDraft => {
    const last = steps[steps.length - 1];
    // calls right after the agent's message (or its other calls) belong to the same turn
    if (last && last.source === 'agent' && last.observations.length === 0) {
      if (pendingReasoning) last.reasoning = last.reasoning ? `${last.reasoning}\n\n${pendingReasoning}` : pendingReasoning;
      pendingReasoning = null;
      return last;
    }
    const step = makeStep('agent', { timestamp, reasoning: pendingReasoning });
    pendingReasoning = null;
    steps.push(step);
    return step;
  };
  const call = (c: ToolCall, timestamp: string | null) => {
    const step = agentStep(timestamp);
    step.toolCalls.push(c);
  };
  const output = (callId: string | null, value: unknown, timestamp: string | null) => {
    const o = outputOf(value);
    const observation: Observation = { toolCallId: callId, content: o.content, isError: o.isError };
    steps.push(makeStep('tool', { observations: [observation], timestamp }));
  };

  for (const { value } of lines) {
    const wrapped = typeof value.type === 'string' && 'payload' in value;
    const type = wrapped
      ? value.type
      : value.record_type === 'state'
        ? 'state'
        : 'id' in value && 'instructions' in value
          ? 'session_meta'
          : 'response_item';
    const payload = wrapped ? value.payload : value;
    const timestamp = timestampOf(value.timestamp);
    if (!isRecord(payload)) continue;
    if (type === 'session_meta') {
      meta ??= payload;
      continue;
    }
    if (type === 'turn_context') {
      if (typeof payload.model === 'string' && payload.model !== '') model ??= payload.model;
      continue;
    }
    if (type === 'event_msg') {
      if ((payload.type === 'user_message' || payload.type === 'agent_message') && typeof payload.message === 'string') {
        eventSteps.push(makeStep(payload.type === 'user_message' ? 'user' : 'agent', { text: payload.message, timestamp }));
      }
      if (payload.type === 'token_count' && isRecord(payload.info) && isRecord(payload.info.total_token_usage)) {
        const t = payload.info.total_token_usage;
        usage = { promptTokens: asCount(t.input_tokens), completionTokens: asCount(t.output_tokens), costUsd: null };
      }
      continue;
    }
    if (type === 'compacted') {
      if (typeof payload.message === 'string') steps.push(makeStep('system', { text: `[compacted] ${payload.message}`, timestamp }));
      continue;
    }
    if (type !== 'response_item') continue;
    responseItems++;
    const item = payload;
    const callId = typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : null;
    switch (item.type) {
      case 'message': {
        const text = contentText(item.content);
        if (item.role === 'assistant') {
          const step = makeStep('agent', { text, timestamp, reasoning: pendingReasoning });
          pendingReasoning = null;
          steps.push(step);
        } else if (item.role === 'user' && !INJECTED.test(text)) {
          if (instruction === '' && text.trim() !== '') instruction = text;
          steps.push(makeStep('user', { text, timestamp }));
        } else if (text.trim() !== '') steps.push(makeStep('system', { text, timestamp }));
        break;
      }
      case 'reasoning': {
        const text = reasoningText(item);
        if (text !== '') pendingReasoning = pendingReasoning ? `${pendingReasoning}\n\n${text}` : text;
        break;
      }
      case 'function_call':
        call(
          { id: callId, name: typeof item.name === 'string' ? item.name : 'function', arguments: parseArguments(item.arguments) },
          timestamp,
        );
        break;
      case 'custom_tool_call':
        call({ id: callId, name: typeof item.name === 'string' ? item.name : 'tool', arguments: item.input ?? '' }, timestamp);
        break;
      case 'local_shell_call': {
        const action = isRecord(item.action) ? item.action : {};
        call({ id: callId, name: 'shell', arguments: { command: action.command ?? [] } }, timestamp);
        break;
      }
      case 'web_search_call':
        call({ id: callId, name: 'web_search', arguments: item.action ?? {} }, timestamp);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output':
        output(callId, item.output, timestamp);
        break;
      default:
        break;
    }
  }
  if (pendingReasoning) steps.push(makeStep('agent', { reasoning: pendingReasoning }));
  if (responseItems === 0 && eventSteps.length > 0) {
    for (const step of eventSteps) steps.push(step); // not push(...): 100k+ arguments overflow the stack
    instruction = eventSteps.find((s) => s.source === 'user' && !INJECTED.test(s.text))?.text ?? '';
  }

  const id = meta && typeof meta.id === 'string' ? meta.id : null;
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const git = meta && isRecord(meta.git) ? meta.git : null;
  const trajectory = buildTrajectory({
    format: 'codex',
    task: { name: instruction.trim() !== '' ? promptTaskName(instruction) : (id ?? path), instruction },
    policy: { model, agent: 'codex' },
    extra: {
      externalId: id,
      usage,
      startedAt: (meta && timestampOf(meta.timestamp)) ?? stamps[0] ?? null,
      endedAt: stamps.length > 1 ? (stamps[stamps.length - 1] ?? null) : null,
      metadata: compact({
        sessionId: id,
        cliVersion: meta?.cli_version,
        originator: meta?.originator,
        cwd: meta?.cwd,
        gitBranch: git?.branch,
        gitCommit: git?.commit_hash,
      }),
    },
  });
  return { ...trajectory, steps: indexSteps(steps) };
}

export const codexImporter: Importer = fileImporter({
  format: 'codex',
  fileLabel: 'a Codex CLI rollout .jsonl file',
  looksLike: looksLikeCodexRollout,
  parseFile: oneItemPerFile(
    (file) =>
      readObjectLines(file, { notObject: 'expected a JSON object (one rollout line)', empty: 'empty file: expected a Codex rollout' }),
    (read, path) => trajectoryItem(codexTrajectory(read.lines, path), '/'),
  ),
});
