import { createHash } from 'node:crypto';
import { readJsonOrJsonl } from './chat-documents';
import { asText, compact, dig, emptyTrajectory } from './chat-fields';
import {
  convertItem,
  describe,
  expectRecord,
  fail,
  firstText,
  idString,
  indexSteps,
  makeStep,
  sumUsage,
  usageOf,
  whereOf,
  type StepDraft,
} from './chat-messages';
import type { ParsedItem, SourceFile } from './importer';
import { baseName, errorItem } from './item';
import { joinPointer } from './json-pointer';
import { asNumber, isRecord } from './parse-json';
import type { FormatName, Trajectory } from './trajectory';

/**
 * Chat transcript files (openai, anthropic): a JSON array of messages (one conversation), a JSON
 * object `{ messages, model?, tools?, system?, metadata?, id? }`, a JSON array of such objects,
 * or JSONL with one conversation (object or message array) per line. One trajectory per
 * conversation; a broken line or conversation yields an error item and the rest still import.
 */

export interface ConversationContext {
  format: FormatName;
  path: string;
  /** '' or `line N` */
  prefix: string;
  /** the conversation's pointer within its document */
  pointer: string;
  /** line number (JSONL) or array index (JSON batch) for naming; null for a single-conversation file */
  ordinal: number | null;
}

export type MessagesToSteps = (messages: unknown, pointer: string) => StepDraft[];

function isMessageLike(v: unknown): boolean {
  return isRecord(v) && typeof v.role === 'string' && !('messages' in v);
}

function isConversationLike(v: unknown): boolean {
  return (Array.isArray(v) && v.some(isMessageLike)) || (isRecord(v) && Array.isArray(v.messages));
}

/** The refusal for a JSON list none of whose elements is a conversation or a message. */
function notConversations(value: unknown[], format: FormatName): string {
  const first = value[0];
  const keys = isRecord(first) ? Object.keys(first).slice(0, 8) : [];
  const label = format === 'openai' ? 'OpenAI chat' : format === 'anthropic' ? 'Anthropic messages' : format;
  const what = isRecord(first) ? `objects with keys ${keys.join(', ') || '(none)'}` : describe(first);
  return `format not recognised (closest: ${label}, because the file mentions chat roles but its ${value.length} elements are ${what}: neither messages nor conversations with "messages"); pass --format to force one`;
}

/** Yields one item per conversation in the file. */
export async function* parseConversations(file: SourceFile, format: FormatName, toSteps: MessagesToSteps): AsyncIterable<ParsedItem> {
  for await (const doc of readJsonOrJsonl(file)) {
    if (!doc.ok) {
      yield errorItem(doc.where, doc.message);
      continue;
    }
    const value = doc.value;
    const prefix = doc.prefix;
    const lineNumber = prefix === '' ? null : Number(prefix.slice('line '.length));
    const base = { format, path: file.path, prefix };
    if (Array.isArray(value) && value.length > 0 && !isMessageLike(value[0])) {
      if (!value.some(isConversationLike)) {
        // a list of something else (events, records): one refusal, never one error per element
        yield errorItem(whereOf(prefix, ''), notConversations(value, format));
        continue;
      }
      for (let i = 0; i < value.length; i++) {
        const ctx: ConversationContext = { ...base, pointer: joinPointer('', i), ordinal: lineNumber ?? i };
        const conv = value[i];
        yield convertItem(prefix, ctx.pointer, () => convertConversation(conv, ctx, toSteps));
      }
    } else {
      const ctx: ConversationContext = { ...base, pointer: '', ordinal: lineNumber };
      yield convertItem(prefix, '', () => convertConversation(value, ctx, toSteps));
    }
  }
}

function systemText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const texts = value
      .map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : typeof b === 'string' ? b : null))
      .filter((t): t is string => t !== null);
    return texts.length > 0 ? texts.join('\n') : null;
  }
  return null;
}

function toolNames(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value
    .map((t) =>
      isRecord(t)
        ? typeof dig(t, 'function', 'name') === 'string'
          ? (dig(t, 'function', 'name') as string)
          : typeof t.name === 'string'
            ? t.name
            : null
        : null,
    )
    .filter((n): n is string => n !== null);
  return names.length > 0 ? names : undefined;
}

export function convertConversation(value: unknown, ctx: ConversationContext, toSteps: MessagesToSteps): Trajectory {
  let conv: Record<string, unknown>;
  let messagesPointer: string;
  if (Array.isArray(value)) {
    if (value.length === 0) fail(ctx.pointer, 'expected a conversation, found an empty array');
    conv = { messages: value };
    messagesPointer = ctx.pointer;
  } else {
    conv = expectRecord(value, ctx.pointer, 'a conversation (an array of messages or an object with "messages")');
    messagesPointer = joinPointer(ctx.pointer, 'messages');
    if (!Array.isArray(conv.messages)) {
      fail(
        messagesPointer,
        conv.messages === undefined
          ? 'missing: expected an array of messages'
          : `expected an array of messages, found ${describe(conv.messages)}`,
      );
    }
  }
  const metadata = isRecord(conv.metadata) ? conv.metadata : {};
  const steps: StepDraft[] = [];
  const system = systemText(conv.system);
  if (system !== null) steps.push(makeStep('system', { text: system }));
  for (const step of toSteps(conv.messages, messagesPointer)) steps.push(step); // not push(...): 100k+ arguments overflow the stack

  const id =
    idString(conv.id) ??
    idString(conv.custom_id) ??
    idString(conv.conversation_id) ??
    idString(metadata.id) ??
    idString(metadata.conversation_id) ??
    idString(conv.sample_id);
  const taskId =
    idString(conv.task_id) ??
    idString(metadata.task_id) ??
    idString(conv.instance_id) ??
    idString(metadata.instance_id) ??
    idString(metadata.task);
  const base = baseName(ctx.path, '.jsonl', '.json') || ctx.format;
  // without an id, the task is its prompt: the same instruction from two models is one task
  const instruction = firstText(steps, 'user');
  const taskName =
    taskId ?? id ?? (instruction.trim() ? promptTaskName(instruction) : ctx.ordinal === null ? base : `${base}#${ctx.ordinal}`);

  let model = typeof conv.model === 'string' ? conv.model : typeof metadata.model === 'string' ? metadata.model : null;
  if (model === null && Array.isArray(conv.messages)) {
    for (const m of conv.messages)
      if (isRecord(m) && m.role === 'assistant' && typeof m.model === 'string') {
        model = m.model;
        break;
      }
  }
  const reward = asNumber(conv.reward) ?? asNumber(metadata.reward);
  const timestamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const restMeta: Record<string, unknown> = { ...metadata };
  for (const key of ['id', 'model', 'task_id', 'agent', 'reward']) delete restMeta[key];

  return {
    ...emptyTrajectory(ctx.format, taskName),
    externalId: id,
    task: {
      name: taskName,
      instruction,
      acceptanceCriteria: [],
      environment: null,
      split: null,
      metadata: {},
    },
    policy: { model, checkpoint: null, agent: typeof metadata.agent === 'string' ? metadata.agent : null },
    steps: indexSteps(steps),
    verifier: reward === null ? null : { reward, components: {} },
    usage: usageOf(conv.usage) ?? sumUsage(steps.map((s) => s.usage)),
    startedAt: timestamps[0] ?? null,
    endedAt: timestamps.length > 1 ? (timestamps[timestamps.length - 1] ?? null) : null,
    metadata: compact({
      ...restMeta,
      tools: toolNames(conv.tools),
      stop_reason: conv.stop_reason === undefined ? undefined : asText(conv.stop_reason),
    }),
  };
}

/** A readable, stable task name from a prompt: its first words as a slug plus a short hash of all of it. */
export function promptTaskName(instruction: string): string {
  const slug = instruction
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, 6)
    .join('-')
    .slice(0, 48);
  return `${slug || 'prompt'}-${createHash('sha256').update(instruction.trim()).digest('hex').slice(0, 8)}`;
}
