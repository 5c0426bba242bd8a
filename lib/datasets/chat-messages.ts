import type { Step, ToolCall } from '../formats/trajectory';

/**
 * A normalised trajectory as chat messages with tool calls, the shape TRL's conversational
 * datasets and chat templates expect (shared by every format that carries messages):
 *
 * - system / user steps -> {role: "system" | "user", content};
 * - an agent step -> {role: "assistant", content, tool_calls?: [{type: "function", function: {name, arguments}}]}
 *   (arguments is an object, as transformers' chat templates render it with tojson; a source that
 *   gave a non-object is kept under {"input": value});
 * - each observation of an agent step, and each tool / environment step after an assistant
 *   message with tool calls -> {role: "tool", name, content} (name of the call it answers when
 *   linked, else the step's own tool); environment output with no pending call -> a user message.
 *
 * Reasoning is not exported (chat templates differ on where it goes). The prompt is every
 * message before the first assistant message; when the source has no user message there, the
 * task instruction is the user message.
 */
export interface ChatToolCall {
  type: 'function';
  function: { name: string; arguments: Record<string, unknown> };
}
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; name: string; content: string };

/** A tool in the `tools` column: a JSON-schema function definition inferred from the calls made. */
export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: { type: 'object'; properties: Record<string, { type: string }>; required: string[] };
  };
}

export interface ChatTrajectory {
  prompt: ChatMessage[];
  completion: ChatMessage[];
  tools: ChatTool[];
}

function callArguments(call: ToolCall): Record<string, unknown> {
  const a = call.arguments;
  if (a && typeof a === 'object' && !Array.isArray(a)) return a as Record<string, unknown>;
  return { input: a ?? null };
}

function toolCall(call: ToolCall): ChatToolCall {
  return { type: 'function', function: { name: call.name, arguments: callArguments(call) } };
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Messages of a list of steps (no prompt split). */
export function stepsToMessages(steps: readonly Step[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  /** names of the calls of the last assistant message, by call id, awaiting results */
  let pending: Map<string | null, string> | null = null;
  const nameFor = (toolCallId: string | null, fallback: string) =>
    pending?.get(toolCallId) ?? (pending && pending.size > 0 ? pending.values().next().value! : fallback);
  for (const step of steps) {
    switch (step.source) {
      case 'system':
      case 'user':
        out.push({ role: step.source, content: step.text });
        pending = null;
        break;
      case 'hook':
        // hook feedback reaches the model as a user turn (Claude Code's "Stop hook feedback")
        out.push({ role: 'user', content: step.text });
        pending = null;
        break;
      case 'agent': {
        const msg: ChatMessage = { role: 'assistant', content: step.text };
        if (step.toolCalls.length > 0) msg.tool_calls = step.toolCalls.map(toolCall);
        out.push(msg);
        pending = new Map(step.toolCalls.map((c) => [c.id, c.name]));
        for (const o of step.observations) out.push({ role: 'tool', name: nameFor(o.toolCallId, 'tool'), content: o.content });
        if (step.observations.length > 0) pending = null;
        break;
      }
      case 'tool':
      case 'environment': {
        const texts = step.observations.length > 0 ? step.observations : [{ toolCallId: null, content: step.text, isError: false }];
        if (pending && pending.size > 0) {
          for (const o of texts) out.push({ role: 'tool', name: nameFor(o.toolCallId, step.source), content: o.content });
        } else {
          for (const o of texts) out.push({ role: 'user', content: o.content });
        }
        break;
      }
    }
  }
  return out;
}

/** The tools a trajectory called, sorted by name; parameters are the argument keys seen, sorted. */
export function inferTools(steps: readonly Step[]): ChatTool[] {
  const tools = new Map<string, Map<string, string>>();
  for (const step of steps) {
    for (const call of step.toolCalls) {
      let props = tools.get(call.name);
      if (!props) tools.set(call.name, (props = new Map()));
      for (const [k, v] of Object.entries(callArguments(call))) if (!props.has(k)) props.set(k, jsonType(v));
    }
  }
  return [...tools.keys()].sort().map((name) => {
    const props = tools.get(name)!;
    const keys = [...props.keys()].sort();
    return {
      type: 'function',
      function: {
        name,
        description: '',
        parameters: { type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: props.get(k)! }])), required: [] },
      },
    };
  });
}

/** Splits a trajectory into prompt (before the first assistant message) and completion. */
export function trajectoryToChat(instruction: string, steps: readonly Step[]): ChatTrajectory {
  const messages = stepsToMessages(steps);
  const first = messages.findIndex((m) => m.role === 'assistant');
  const cut = first === -1 ? messages.length : first;
  const prompt = messages.slice(0, cut);
  if (!prompt.some((m) => m.role === 'user')) prompt.push({ role: 'user', content: instruction });
  return { prompt, completion: messages.slice(cut), tools: inferTools(steps) };
}

/**
 * What separates the steps of a stepwise (PRM) row when a trainer joins them: TRL's
 * `PRMConfig(step_separator=...)` (its default "\n" occurs inside steps, which join a message and
 * its tool calls with "\n"). No step text contains it: stepText folds blank lines.
 */
export const PRM_STEP_SEPARATOR = '\n\n';

/**
 * Plain text of one agent step for step-wise (PRM) data: its text, then its tool calls as
 * JSON lines; runs of blank lines become one newline so the text never holds PRM_STEP_SEPARATOR.
 */
export function stepText(step: Step): string {
  const calls = step.toolCalls.map((c) => `${c.name}(${JSON.stringify(callArguments(c))})`);
  return [step.text.trim(), ...calls]
    .filter((s) => s.length > 0)
    .join('\n')
    .replace(/\n(\s*\n)+/g, '\n');
}

/** A message with every key present (null where it has none): the same shape in every row. */
export interface UniformChatMessage {
  role: ChatMessage['role'];
  content: string;
  tool_calls: ChatToolCall[] | null;
  name: string | null;
}

/**
 * Messages with one set of keys ({role, content, tool_calls, name}), for trainers that read
 * the data with `datasets` and map columns in place (OpenRLHF): mixed shapes make datasets 5
 * type the column as JSON, and a string mapped back under the same name is then read as a list.
 */
export function uniformMessages(messages: readonly ChatMessage[]): UniformChatMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content,
    tool_calls: 'tool_calls' in m && m.tool_calls ? m.tool_calls : null,
    name: 'name' in m ? m.name : null,
  }));
}
