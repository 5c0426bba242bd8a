import { joinPointer } from './json-pointer';
import { asCount, asNumber, asString, isRecord, nestedTooDeep } from './parse-json';
import type { ParsedItem } from './importer';
import { errorItem, isoFromUnix, MAX_STEPS, tooManyStepsMessage, trajectoryItem } from './item';
import type { Observation, Step, StepSource, ToolCall, Trajectory, Usage } from './trajectory';

/**
 * Shared pieces of the chat-style importers (openai, anthropic, tau-bench, tau2, mini-swe-agent,
 * swe-agent): a located error, step drafts, and the conversion of OpenAI-style message lists
 * (role system/user/assistant/tool, `tool_calls` with string JSON arguments) to steps.
 */

/** A problem at a JSON pointer inside one item; importers turn it into `{ ok: false }`. */
export class ItemError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
    this.name = 'ItemError';
  }
}

export function fail(pointer: string, message: string): never {
  throw new ItemError(pointer, message);
}

/** `where` for an item: `line 3 /messages/2`, `/simulations/1`, or `/` for the whole document. */
export function whereOf(prefix: string, pointer: string): string {
  if (prefix === '') return pointer === '' ? '/' : pointer;
  return pointer === '' ? prefix : `${prefix} ${pointer}`;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function expectRecord(value: unknown, pointer: string, what = 'an object'): Record<string, unknown> {
  if (!isRecord(value)) fail(pointer, `expected ${what}, found ${describe(value)}`);
  return value;
}

export function expectArray(value: unknown, pointer: string, what = 'an array'): unknown[] {
  if (!Array.isArray(value))
    fail(pointer, value === undefined ? `missing: expected ${what}` : `expected ${what}, found ${describe(value)}`);
  return value;
}

/** A string, or null when absent/null; anything else is an error. */
export function optionalString(value: unknown, pointer: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(pointer, `expected a string, found ${describe(value)}`);
  return value;
}

/** A chat message's `role`, which must be a string. */
export function roleOf(message: Record<string, unknown>, pointer: string): string {
  const role = message.role;
  if (typeof role !== 'string')
    fail(
      joinPointer(pointer, 'role'),
      role === undefined ? 'missing: expected a role string' : `expected a role string, found ${describe(role)}`,
    );
  return role;
}

/** A non-empty id-like value (string or number) as a string, else null. */
export function idString(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export type StepDraft = Omit<Step, 'index'>;

export function makeStep(source: StepSource, fields: Partial<StepDraft> = {}): StepDraft {
  return {
    source,
    text: '',
    reasoning: null,
    toolCalls: [],
    observations: [],
    timestamp: null,
    castTime: null,
    usage: null,
    ...fields,
  };
}

export function indexSteps(drafts: StepDraft[]): Step[] {
  return drafts.map((d, index) => ({ index, ...d }));
}

/**
 * Tool-call arguments: JSON strings are parsed; a string that is not JSON, or JSON nested deeper
 * than MAX_JSON_DEPTH (which no stable hash or jsonb column could write back), is kept as-is.
 */
export function parseArguments(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return nestedTooDeep(parsed) ? value : parsed;
  } catch {
    return value;
  }
}

/** ISO-8601 from a string (kept as-is) or unix seconds / milliseconds. */
export function timestampOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  const n = asNumber(value);
  if (n === null || n <= 0) return null;
  return isoFromUnix(n > 1e11 ? n / 1000 : n);
}

/** Usage from an OpenAI (`prompt_tokens`) or Anthropic (`input_tokens`) usage object plus an optional cost. */
export function usageOf(usage: unknown, cost: unknown = undefined): Usage | null {
  const u = isRecord(usage) ? usage : {};
  const promptTokens = asCount(u.prompt_tokens) ?? asCount(u.input_tokens);
  const completionTokens = asCount(u.completion_tokens) ?? asCount(u.output_tokens);
  const costUsd = asCount(cost) ?? asCount(u.cost);
  if (promptTokens === null && completionTokens === null && costUsd === null) return null;
  return { promptTokens, completionTokens, costUsd };
}

/** Sum of step usages; null when no step has any. */
export function sumUsage(usages: (Usage | null)[]): Usage | null {
  let any = false;
  const total: { promptTokens: number | null; completionTokens: number | null; costUsd: number | null } = {
    promptTokens: null,
    completionTokens: null,
    costUsd: null,
  };
  for (const u of usages) {
    if (!u) continue;
    any = true;
    for (const key of ['promptTokens', 'completionTokens', 'costUsd'] as const) {
      const v = u[key];
      if (v !== null) total[key] = (total[key] ?? 0) + v;
    }
  }
  return any ? total : null;
}

function partText(part: unknown): string | null {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return null;
  const type = asString(part.type);
  if (typeof part.text === 'string') return part.text;
  if (type === 'image_url' || type === 'image' || type === 'input_image') return '[image]';
  if (type === 'input_audio' || type === 'audio') return '[audio]';
  if (type === 'file' || type === 'document' || type === 'input_file') return '[file]';
  if (typeof part.refusal === 'string') return part.refusal;
  if (typeof part.content === 'string') return part.content;
  return null;
}

/**
 * Message content as text: a string as-is; an array of parts joined by newlines (text parts
 * verbatim, images/audio/files as placeholders); null/absent as ''.
 */
export function contentText(content: unknown, pointer: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => partText(part))
      .filter((t): t is string => t !== null)
      .join('\n');
  }
  if (isRecord(content) && typeof content.text === 'string') return content.text;
  return fail(pointer, `expected content to be a string or an array of parts, found ${describe(content)}`);
}

/** Reasoning carried next to an assistant message (`reasoning_content`, `reasoning`, `thinking_blocks`). */
export function reasoningOf(message: Record<string, unknown>): string | null {
  const parts: string[] = [];
  for (const key of ['reasoning_content', 'reasoning', 'thinking']) {
    const v = message[key];
    if (typeof v === 'string' && v.trim() !== '') {
      parts.push(v);
      break;
    }
  }
  if (parts.length === 0 && Array.isArray(message.thinking_blocks)) {
    for (const block of message.thinking_blocks) {
      if (isRecord(block) && typeof block.thinking === 'string' && block.thinking !== '') parts.push(block.thinking);
    }
  }
  return parts.length > 0 ? parts.join('\n\n') : null;
}

/**
 * Tool calls in either the OpenAI shape (`{id, type: "function", function: {name, arguments: "<json>"}}`)
 * or the flat shape (`{id, name, arguments}`, tau2). Arguments are parsed when they are JSON strings.
 */
export function toolCallsOf(value: unknown, pointer: string): ToolCall[] {
  if (value === undefined || value === null) return [];
  const calls = expectArray(value, pointer, 'an array of tool calls');
  return calls.map((raw, i) => {
    const at = joinPointer(pointer, i);
    const call = expectRecord(raw, at, 'a tool call object');
    const fn = isRecord(call.function) ? call.function : call;
    const name = fn.name;
    if (typeof name !== 'string' || name === '') {
      fail(
        joinPointer(at, ...(fn === call ? ['name'] : ['function', 'name'])),
        `expected the tool name as a non-empty string, found ${describe(name)}`,
      );
    }
    const args = 'arguments' in fn ? fn.arguments : 'input' in fn ? fn.input : fn.args;
    return { id: idString(call.id), name, arguments: parseArguments(args) };
  });
}

/** The legacy single `function_call: {name, arguments}` of older OpenAI messages. */
function functionCallOf(value: unknown, pointer: string): ToolCall[] {
  if (value === undefined || value === null) return [];
  const fc = expectRecord(value, pointer, 'a function_call object');
  if (typeof fc.name !== 'string' || fc.name === '') fail(joinPointer(pointer, 'name'), 'expected the function name as a non-empty string');
  return [{ id: null, name: fc.name, arguments: parseArguments(fc.arguments) }];
}

export interface OpenaiStepOptions {
  /** how a `user` message maps (tau-bench's simulated user is still `user`) */
  userSource?: StepSource;
}

const roleSources: Record<string, StepSource> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  human: 'user',
  assistant: 'agent',
  model: 'agent',
  tool: 'tool',
  function: 'tool',
  ipython: 'tool',
};

/** One OpenAI-style chat message as a step draft. */
export function openaiMessageToStep(raw: unknown, pointer: string, options: OpenaiStepOptions = {}): StepDraft {
  const message = expectRecord(raw, pointer, 'a message object');
  const role = roleOf(message, pointer);
  const source = roleSources[role];
  if (!source)
    fail(joinPointer(pointer, 'role'), `expected role system, developer, user, assistant or tool, found ${JSON.stringify(role)}`);
  const text = contentText(message.content, joinPointer(pointer, 'content'));
  const timestamp = timestampOf(message.timestamp ?? message.created_at ?? message.created);
  if (source === 'tool') {
    const toolCallId = idString(message.tool_call_id) ?? idString(message.id);
    const observation: Observation = {
      toolCallId,
      content: text,
      isError: message.is_error === true || message.error === true,
    };
    return makeStep('tool', { observations: [observation], timestamp });
  }
  if (source === 'agent') {
    const toolCalls = [
      ...toolCallsOf(message.tool_calls, joinPointer(pointer, 'tool_calls')),
      ...functionCallOf(message.function_call, joinPointer(pointer, 'function_call')),
    ];
    const refusal = asString(message.refusal);
    return makeStep('agent', {
      text: text === '' && refusal ? refusal : text,
      reasoning: reasoningOf(message),
      toolCalls,
      timestamp,
      usage: usageOf(message.usage, message.cost),
    });
  }
  const s = source === 'user' ? (options.userSource ?? 'user') : source;
  return makeStep(s, { text, timestamp });
}

export function openaiMessagesToSteps(value: unknown, pointer: string, options: OpenaiStepOptions = {}): StepDraft[] {
  const messages = expectArray(value, pointer, 'an array of messages');
  // refused before converting a million messages (trajectoryItem refuses every importer's longer runs)
  if (messages.length > MAX_STEPS) fail(pointer, tooManyStepsMessage(messages.length, 'messages'));
  return messages.map((m, i) => openaiMessageToStep(m, joinPointer(pointer, i), options));
}

/** The text of the first step from `source` (the instruction of a chat transcript), or ''. */
export function firstText(steps: StepDraft[], source: StepSource): string {
  return steps.find((s) => s.source === source && s.text.trim() !== '')?.text ?? '';
}

/**
 * Runs one item's conversion: a built trajectory goes through the schema gate; an ItemError
 * becomes an error item at its pointer; any other exception becomes an internal error item
 * (importers never throw on bad input).
 */
export function convertItem(prefix: string, itemPointer: string, build: () => Trajectory): ParsedItem {
  try {
    return trajectoryItem(build(), whereOf(prefix, itemPointer));
  } catch (e) {
    if (e instanceof ItemError) return errorItem(whereOf(prefix, e.pointer), e.message);
    return errorItem(whereOf(prefix, itemPointer), `internal: ${e instanceof Error ? e.message : String(e)}`);
  }
}
