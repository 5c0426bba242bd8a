import { looksLikeAnthropic } from './chat-detect';
import { parseConversations } from './chat-conversations';
import { describe, expectArray, expectRecord, fail, idString, makeStep, timestampOf, usageOf, type StepDraft } from './chat-messages';
import { fileImporter } from './file-importer';
import type { Importer } from './importer';
import { joinPointer } from './json-pointer';
import { isRecord } from './parse-json';
import type { Observation, ToolCall } from './trajectory';

/**
 * Anthropic Messages transcripts: `{ role: "user" | "assistant", content: string | blocks }` with
 * blocks `text`, `thinking` / `redacted_thinking` (reasoning), `tool_use` `{id, name, input}`,
 * `tool_result` `{tool_use_id, content: string | blocks, is_error}`, images / documents
 * (placeholders), and server tools (`server_tool_use` + `*_tool_result`). The system prompt is
 * the top-level `system` (string or text blocks). A user message's `tool_result` blocks become
 * tool steps (one per result, paired by `tool_use_id`) before the user's own text.
 * File shapes: see chat-conversations.ts (array, object, batch, JSONL).
 */
export const anthropicImporter: Importer = fileImporter({
  format: 'anthropic',
  fileLabel: 'an Anthropic messages .json / .jsonl file',
  looksLike: looksLikeAnthropic,
  parseFile: (file) => parseConversations(file, 'anthropic', anthropicMessagesToSteps),
});

function resultContent(value: unknown, pointer: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((b) => {
        if (typeof b === 'string') return b;
        if (!isRecord(b)) return null;
        if (typeof b.text === 'string') return b.text;
        if (b.type === 'image') return '[image]';
        if (b.type === 'document') return '[document]';
        return typeof b.type === 'string' ? `[${b.type}]` : null;
      })
      .filter((t): t is string => t !== null)
      .join('\n');
  }
  if (isRecord(value)) return JSON.stringify(value);
  return fail(pointer, `expected tool result content as a string or blocks, found ${describe(value)}`);
}

const toolUseTypes = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** One Anthropic message as step drafts (a user message with tool results gives several). */
export function anthropicMessageToSteps(raw: unknown, pointer: string): StepDraft[] {
  const m = expectRecord(raw, pointer, 'a message object');
  const role = m.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    fail(
      joinPointer(pointer, 'role'),
      role === undefined
        ? 'missing: expected role "user" or "assistant"'
        : `expected role "user" or "assistant", found ${JSON.stringify(role)}`,
    );
  }
  const source = role === 'assistant' ? 'agent' : role;
  const timestamp = timestampOf(m.timestamp ?? m.created_at);
  const contentPointer = joinPointer(pointer, 'content');
  if (m.content === undefined) fail(contentPointer, 'missing: expected content (a string or an array of blocks)');
  if (typeof m.content === 'string') {
    return [makeStep(source, { text: m.content, timestamp, usage: source === 'agent' ? usageOf(m.usage) : null })];
  }
  const blocks = expectArray(m.content, contentPointer, 'content as a string or an array of blocks');
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ToolCall[] = [];
  const observations: Observation[] = [];
  blocks.forEach((rawBlock, k) => {
    const at = joinPointer(contentPointer, k);
    const block = expectRecord(rawBlock, at, 'a content block object');
    const type = block.type;
    if (typeof type !== 'string') fail(joinPointer(at, 'type'), `expected the block type as a string, found ${describe(type)}`);
    if (type === 'text') {
      if (typeof block.text !== 'string') fail(joinPointer(at, 'text'), `expected text as a string, found ${describe(block.text)}`);
      texts.push(block.text);
    } else if (type === 'thinking') {
      if (typeof block.thinking === 'string' && block.thinking !== '') thinking.push(block.thinking);
    } else if (type === 'redacted_thinking') {
      thinking.push('[redacted thinking]');
    } else if (toolUseTypes.has(type)) {
      if (typeof block.name !== 'string' || block.name === '')
        fail(joinPointer(at, 'name'), `expected the tool name as a non-empty string, found ${describe(block.name)}`);
      toolCalls.push({ id: idString(block.id), name: block.name, arguments: block.input ?? {} });
    } else if (type === 'tool_result' || type.endsWith('_tool_result')) {
      observations.push({
        toolCallId: idString(block.tool_use_id),
        content: resultContent(block.content, joinPointer(at, 'content')),
        isError: block.is_error === true,
      });
    } else if (type === 'image') {
      texts.push('[image]');
    } else if (type === 'document') {
      texts.push('[document]');
    }
  });
  const text = texts.join('\n');
  if (source === 'agent') {
    return [
      makeStep('agent', {
        text,
        reasoning: thinking.length > 0 ? thinking.join('\n\n') : null,
        toolCalls,
        observations,
        timestamp,
        usage: usageOf(m.usage),
      }),
    ];
  }
  const steps = observations.map((o) => makeStep('tool', { observations: [o], timestamp }));
  if (text !== '' || observations.length === 0 || toolCalls.length > 0) steps.push(makeStep(source, { text, toolCalls, timestamp }));
  return steps;
}

export function anthropicMessagesToSteps(value: unknown, pointer: string): StepDraft[] {
  const messages = expectArray(value, pointer, 'an array of messages');
  return messages.flatMap((m, i) => anthropicMessageToSteps(m, joinPointer(pointer, i)));
}
