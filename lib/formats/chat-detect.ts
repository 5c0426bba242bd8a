import type { Probe } from './importer';

/**
 * Content sniffing for the chat-style importers. Detection sees only the start of a file (the
 * head may cut a big file mid-JSON), so these are cheap key checks, never a parse. They are
 * written together so they exclude each other: the harness formats (swe-agent, mini-swe-agent,
 * tau-bench, tau2) are checked by specific keys, and the generic chat formats (openai,
 * anthropic) step aside when any harness marker is present.
 */

/** The head of a file probe with leading whitespace / BOM removed, or null for directories. */
export function fileHead(probe: Probe): string | null {
  if (probe.kind !== 'file') return null;
  return probe.head.replace(/^\uFEFF/, '').trimStart();
}

const has = (head: string, re: RegExp) => re.test(head);

export function looksLikeMiniSweAgent(head: string): boolean {
  if (!head.startsWith('{')) return false;
  return (
    has(head, /"trajectory_format"\s*:\s*"mini-swe-agent/) ||
    has(head, /"mini_version"\s*:/) ||
    has(head, /"(agent|model|environment)_type"\s*:\s*"minisweagent\./)
  );
}

export function looksLikeSweAgent(head: string): boolean {
  if (!head.startsWith('{')) return false;
  if (has(head, /"trajectory_format"\s*:/) || looksLikeMiniSweAgent(head)) return false;
  if (!has(head, /"trajectory"\s*:\s*\[/)) return false;
  const stepKeys =
    has(head, /"action"\s*:/) && has(head, /"observation"\s*:/) && (has(head, /"thought"\s*:/) || has(head, /"response"\s*:/));
  const infoKeys = has(head, /"exit_status"\s*:/) || has(head, /"model_stats"\s*:/) || has(head, /"replay_config"\s*:/);
  return stepKeys || infoKeys;
}

export function looksLikeTau2(head: string): boolean {
  if (!head.startsWith('{') && !head.startsWith('[')) return false;
  const simulationRun = has(head, /"termination_reason"\s*:/) && has(head, /"task_id"\s*:/);
  // a bare list of simulations (leaderboard submissions): each has a task id, a termination reason
  if (head.startsWith('[')) return simulationRun;
  const results =
    (has(head, /"agent_info"\s*:/) &&
      has(head, /"user_info"\s*:/) &&
      (has(head, /"environment_info"\s*:/) || has(head, /"git_commit"\s*:/))) ||
    (has(head, /"simulations"\s*:\s*\[/) && has(head, /"tasks"\s*:\s*\[/));
  return simulationRun || results;
}

export function looksLikeTauBench(head: string): boolean {
  if (!(head.startsWith('[') || head.startsWith('{'))) return false;
  if (has(head, /"termination_reason"\s*:/) || looksLikeTau2(head)) return false;
  if (!has(head, /"task_id"\s*:/) || !has(head, /"reward"\s*:/)) return false;
  return has(head, /"traj"\s*:\s*\[/) || (has(head, /"user_id"\s*:/) && has(head, /"instruction"\s*:/) && has(head, /"trial"\s*:/));
}

/** Markers of formats that embed chat messages but are not plain chat transcripts. */
export function looksLikeHarness(head: string): boolean {
  return (
    looksLikeSweAgent(head) ||
    looksLikeMiniSweAgent(head) ||
    looksLikeTau2(head) ||
    looksLikeTauBench(head) ||
    has(head, /"trajectory"\s*:\s*\[/) ||
    has(head, /"trajectory_format"\s*:/) ||
    has(head, /"traj"\s*:\s*\[/) ||
    has(head, /"schema_version"\s*:\s*"ATIF/) ||
    // Claude Code session logs: one message event per line, not one conversation per line
    (has(head, /"parentUuid"\s*:/) && has(head, /"sessionId"\s*:/)) ||
    // Codex CLI rollouts: response items wrapped in {timestamp, type, payload}
    has(head, /"type"\s*:\s*"(session_meta|response_item|turn_context)"\s*,\s*"payload"/) ||
    has(head, /"record_type"\s*:\s*"state"/) ||
    // OpenHands events: {id, source, action | observation}, model responses inside tool_call_metadata
    has(head, /"tool_call_metadata"\s*:/) ||
    (has(head, /"source"\s*:\s*"(agent|user|environment)"/) && has(head, /"(action|observation)"\s*:\s*"[a-z_]+"/)) ||
    // Cline / Roo task histories: Cline's modelInfo, XML tool results, editor state
    has(head, /"modelInfo"\s*:\s*\{[^}]*"modelId"/) ||
    has(head, /\] Result:/) ||
    has(head, /<environment_details>/) ||
    (has(head, /"eval"\s*:\s*\{/) && (has(head, /"samples"\s*:/) || has(head, /"status"\s*:/)))
  );
}

const anthropicMarker =
  /"type"\s*:\s*"(tool_use|tool_result|thinking|redacted_thinking|server_tool_use|web_search_tool_result)"|"stop_reason"\s*:|"input_tokens"\s*:|"tool_use_id"\s*:/;

function chatShaped(head: string): boolean {
  return (head.startsWith('[') || head.startsWith('{')) && has(head, /"role"\s*:\s*"(system|developer|user|assistant|tool|function)"/);
}

export function looksLikeAnthropic(head: string): boolean {
  if (!chatShaped(head) || looksLikeHarness(head)) return false;
  if (has(head, /"tool_calls"\s*:\s*\[\s*\{|"tool_call_id"\s*:|"role"\s*:\s*"tool"/)) return false;
  // a top-level `system` prompt next to `messages` is the Messages API request shape
  return has(head, anthropicMarker) || (head.startsWith('{') && has(head, /"system"\s*:\s*["[]/) && has(head, /"messages"\s*:\s*\[/));
}

export function looksLikeOpenai(head: string): boolean {
  if (!chatShaped(head) || looksLikeHarness(head)) return false;
  return !looksLikeAnthropic(head);
}
