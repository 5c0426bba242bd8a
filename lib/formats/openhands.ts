import { buildTrajectory } from './build-trajectory';
import { readJsonDocument } from './chat-documents';
import { promptTaskName } from './chat-conversations';
import { fileHead } from './chat-detect';
import { compact, dig } from './chat-fields';
import {
  describe,
  expectRecord,
  fail,
  ItemError,
  indexSteps,
  makeStep,
  sumUsage,
  timestampOf,
  usageOf,
  type StepDraft,
} from './chat-messages';
import { wholeFileItem } from './file-importer';
import type { Importer, ParsedItem, SourceDir } from './importer';
import { errorItem } from './item';
import { joinPointer } from './json-pointer';
import { asCount, isRecord, parseJson } from './parse-json';
import type { ToolCall } from './trajectory';

/**
 * OpenHands (V0) event streams, as the session saves them and as its trajectory exports write
 * them (All-Hands-AI/OpenHands `openhands/events/serialization/event.py` event_to_dict /
 * event_to_trajectory; recordings in `tests/runtime/trajs/*.json`):
 *
 *   action events      {id, timestamp, source: "user" | "agent" | "environment", message, action,
 *                       args: {...}, tool_call_metadata?: {function_name, tool_call_id, model_response,
 *                       total_calls_in_response}, llm_metrics?, timeout?}
 *   observation events {id, timestamp, source, message, cause: <action id>, observation, content,
 *                       extras: {...}, success?, tool_call_metadata?}
 *
 * Files: a JSON list of events (the "download trajectory" file), `{trajectory: [...]}` (the
 * `/trajectory` route) or `{history: [...]}` (evaluation outputs); a session folder
 * `sessions/<id>/` with `events/<n>.json` (one event a file, `openhands/storage/locations.py`) and
 * `metadata.json`, or the `events/` folder itself.
 *
 * One step: an agent turn is one model response, i.e. the action events sharing
 * `tool_call_metadata.model_response.id` (a response with several tool calls gives several
 * actions), with every action a tool call: `run` (command), `run_ipython` (code), `read`, `write`,
 * `edit` (str_replace_editor's command/path/old_str/new_str, so the edit renders as a diff), `browse`
 * / `browse_interactive`, `call_tool_mcp`, `think`, `finish` (its outputs and final thought are the
 * submission), `delegate`, `task_tracking`. Each observation is its own `tool` step linked to its
 * call by `cause` (else the tool call id): a command's output with its exit code, an edit's diff
 * (`extras.diff`, else the content when it is one), a page's text. User messages are `user` steps,
 * the system prompt a `system` step, condensation a `system` step; an action the user (or the
 * harness) ran itself is a `user` (`environment`) step with that call. Bookkeeping events (agent state
 * changes, `null` observations, recall of microagents) are counted in metadata, not steps.
 * Policy: the model of the responses (else `metadata.json`'s `llm_model`), agent `openhands`.
 */

type Json = Record<string, unknown>;

const ACTIONS =
  /"action"\s*:\s*"(message|system|run|run_ipython|read|write|edit|browse|browse_interactive|think|finish|call_tool_mcp|recall|change_agent_state|delegate|condensation)"/;

/** Sniffs an OpenHands event list: events with `id`, `source` and an `action` / `observation` name. */
export function looksLikeOpenHands(head: string): boolean {
  const h = head.trimStart();
  if (!h.startsWith('[') && !h.startsWith('{')) return false;
  if (h.startsWith('{') && !/^\{\s*"(trajectory|history)"\s*:\s*\[/.test(h) && !/^\{\s*"id"\s*:/.test(h)) return false;
  if (!/"source"\s*:\s*"(user|agent|environment)"/.test(h)) return false;
  return ACTIONS.test(h) || (/"observation"\s*:\s*"[a-z_]+"/.test(h) && /"cause"\s*:/.test(h));
}

const EVENT_FILE = /^(?:events\/)?(\d+)\.json$/;

/** A session folder (`events/<n>.json` + `metadata.json`) or an `events/` folder of `<n>.json` files. */
export function looksLikeOpenHandsDir(entries: string[]): boolean {
  const events = entries.filter((e) => EVENT_FILE.test(e));
  if (events.length === 0) return false;
  const bare = events.some((e) => !e.startsWith('events/'));
  // an events/ folder itself: nothing but numbered event files
  if (bare) return entries.every((e) => /^\d+\.json$/.test(e));
  return true;
}

function eventsOf(value: unknown): { events: unknown[]; pointer: string } {
  if (Array.isArray(value)) return { events: value, pointer: '' };
  if (isRecord(value) && Array.isArray(value.trajectory)) return { events: value.trajectory, pointer: '/trajectory' };
  if (isRecord(value) && Array.isArray(value.history)) return { events: value.history, pointer: '/history' };
  if (isRecord(value) && (typeof value.action === 'string' || typeof value.observation === 'string'))
    fail(
      '/',
      'this is one event of an OpenHands session (events/<n>.json): import the session folder (its events/ and metadata.json) instead',
    );
  return fail('/', `expected a list of OpenHands events (or {"trajectory": [...]}), found ${describe(value)}`);
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The arguments a tool call of this action was made with (what the model sent, else the action's args). */
function callOf(action: string, args: Json, meta: Json | null, eventId: string): ToolCall {
  const id = str(meta?.tool_call_id) ?? `openhands-${eventId}`;
  const fn = str(meta?.function_name);
  const pick = (...keys: string[]) => compact(Object.fromEntries(keys.map((k) => [k, args[k] === null ? undefined : args[k]])));
  switch (action) {
    case 'run':
      return { id, name: fn ?? 'execute_bash', arguments: pick('command', 'is_input') };
    case 'run_ipython':
      return { id, name: fn ?? 'execute_ipython_cell', arguments: pick('code') };
    case 'read':
      return { id, name: fn ?? 'str_replace_editor', arguments: { command: 'view', ...pick('path', 'view_range') } };
    case 'write':
      return { id, name: fn ?? 'write', arguments: pick('path', 'content') };
    case 'edit': {
      const modelArgs = modelArguments(meta, id);
      const a = modelArgs ?? pick('command', 'path', 'old_str', 'new_str', 'file_text', 'insert_line', 'content');
      return { id, name: fn ?? 'str_replace_editor', arguments: a };
    }
    case 'browse':
      return { id, name: fn ?? 'browser', arguments: pick('url') };
    case 'browse_interactive':
      return { id, name: fn ?? 'browser', arguments: pick('browser_actions') };
    case 'call_tool_mcp':
      return { id, name: str(args.name) ?? fn ?? 'mcp', arguments: isRecord(args.arguments) ? args.arguments : {} };
    case 'think':
      return { id, name: fn ?? 'think', arguments: pick('thought') };
    case 'finish':
      return { id, name: fn ?? 'finish', arguments: pick('outputs', 'final_thought', 'message') };
    case 'delegate':
      return { id, name: fn ?? 'delegate', arguments: pick('agent', 'inputs') };
    default: {
      const rest = { ...args };
      delete rest.thought;
      return { id, name: fn ?? action, arguments: rest };
    }
  }
}

/** The message of a model response's first choice. */
function choiceMessage(response: unknown): Json | null {
  const choices = isRecord(response) ? response.choices : null;
  const first: unknown = Array.isArray(choices) ? choices[0] : null;
  return isRecord(first) && isRecord(first.message) ? first.message : null;
}

/** The arguments of this call in the model's own response (str_replace_editor's old_str/new_str), when it is there. */
function modelArguments(meta: Json | null, id: string): Json | null {
  const calls = choiceMessage(meta?.model_response)?.tool_calls;
  if (!Array.isArray(calls)) return null;
  for (const c of calls) {
    if (!isRecord(c) || c.id !== id) continue;
    const raw = dig(c, 'function', 'arguments');
    if (typeof raw !== 'string') return isRecord(raw) ? raw : null;
    const parsed = parseJson(raw);
    return parsed.ok && isRecord(parsed.value) ? parsed.value : null;
  }
  return null;
}

/** What an observation shows the agent: a command's output and exit code, an edit's diff, a page's text. */
function observationText(kind: string, content: string, extras: Json): string {
  if (kind === 'run' || kind === 'run_ipython') {
    const code = dig(extras, 'metadata', 'exit_code');
    const exit = typeof code === 'number' ? code : null;
    const suffix = str(dig(extras, 'metadata', 'suffix'))?.trim();
    const parts = [content.replace(/\s+$/, '')];
    if (suffix) parts.push(suffix);
    else if (exit !== null) parts.push(`[exit code ${exit}]`);
    return parts.filter((p) => p !== '').join('\n');
  }
  if (kind === 'edit') {
    const diff = str(extras.diff);
    if (diff && diff.trim() !== '') return diff;
    return content;
  }
  if (kind === 'browse') {
    const url = str(extras.url);
    return url ? `${url}\n\n${content}` : content;
  }
  return content;
}

function isErrorObservation(kind: string, e: Json, extras: Json): boolean {
  if (kind === 'error' || kind === 'user_rejected') return true;
  if (e.success === false) return true;
  const exit = dig(extras, 'metadata', 'exit_code');
  return (kind === 'run' || kind === 'run_ipython') && typeof exit === 'number' && exit > 0;
}

const SKIPPED_ACTIONS = new Set(['change_agent_state', 'recall', 'null', 'pause', 'resume', 'stop', 'start', 'condensation_request']);
const SKIPPED_OBSERVATIONS = new Set(['null', 'agent_state_changed', 'recall']);

export function openHandsTrajectory(value: unknown, path: string, metadata: Json | null = null, eventWhere?: (i: number) => string) {
  const { events, pointer } = eventsOf(value);
  const steps: StepDraft[] = [];
  const callByAction = new Map<string, string>(); // action event id -> tool call id
  const models = new Map<string, number>();
  let lastTurn: { responseId: string; step: StepDraft } | null = null;
  let instruction = '';
  let submission: string | null = null;
  let exitStatus: string | null = null;
  let lastState: string | null = null;
  let cost: number | null = null;
  let skipped = 0;

  events.forEach((raw, i) => {
    const at = eventWhere ? eventWhere(i) : joinPointer(pointer, i);
    const e = expectRecord(raw, at, 'an OpenHands event object');
    const eventId = e.id === undefined || e.id === null ? String(i) : String(e.id);
    const timestamp = timestampOf(e.timestamp);
    const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : null;
    const accumulated = asCount(dig(e, 'llm_metrics', 'accumulated_cost'));
    if (accumulated !== null) cost = accumulated;

    if (typeof e.action === 'string') {
      const action = e.action;
      const args = isRecord(e.args) ? e.args : {};
      if (SKIPPED_ACTIONS.has(action)) {
        if (action === 'change_agent_state' && typeof args.agent_state === 'string') lastState = args.agent_state;
        skipped++;
        return;
      }
      if (action === 'system') {
        const text = str(args.content) ?? str(e.message) ?? '';
        if (text.trim() !== '') steps.push(makeStep('system', { text, timestamp }));
        lastTurn = null;
        return;
      }
      if (action === 'condensation') {
        const summary = str(args.summary);
        steps.push(makeStep('system', { text: `[condensed history]${summary ? ` ${summary}` : ''}`, timestamp }));
        lastTurn = null;
        return;
      }
      if (action === 'message' && e.source !== 'agent') {
        const text = str(args.content) ?? str(e.message) ?? '';
        if (text.trim() === '') return;
        if (instruction === '' && e.source === 'user') instruction = text;
        steps.push(makeStep(e.source === 'user' ? 'user' : 'environment', { text, timestamp }));
        lastTurn = null;
        return;
      }
      if (e.source !== 'agent' && action !== 'finish' && action !== 'message') {
        // a command the user ran in the session's terminal, or one the harness ran: theirs, not the agent's
        const call = callOf(action, args, meta, eventId);
        callByAction.set(eventId, call.id!);
        steps.push(makeStep(e.source === 'user' ? 'user' : 'environment', { text: str(e.message) ?? '', toolCalls: [call], timestamp }));
        lastTurn = null;
        return;
      }
      const response = isRecord(meta?.model_response) ? meta.model_response : null;
      const responseId = str(response?.id);
      const model = str(response?.model);
      if (model) models.set(model, (models.get(model) ?? 0) + 1);
      const thought = str(args.thought)?.trim() || '';
      let text = action === 'message' ? (str(args.content) ?? str(e.message) ?? '') : thought;
      const reasoning = action === 'think' ? thought : (str(choiceMessage(response)?.reasoning_content) ?? null);
      if (action === 'think') text = '';
      const call = action === 'message' ? null : callOf(action, args, meta, eventId);
      if (call) callByAction.set(eventId, call.id!);
      if (action === 'finish') {
        const outputs = isRecord(args.outputs) && Object.keys(args.outputs).length > 0 ? JSON.stringify(args.outputs, null, 2) : null;
        submission = str(args.final_thought) || str(args.message) || outputs || thought || str(e.message) || null;
        exitStatus = 'finished';
        if (text === '') text = str(args.final_thought) ?? str(e.message) ?? '';
      }
      if (action === 'reject') exitStatus = 'rejected';
      // the other actions of the same model response join its turn
      if (responseId && lastTurn && lastTurn.responseId === responseId) {
        if (text !== '' && !lastTurn.step.text.includes(text))
          lastTurn.step.text = lastTurn.step.text === '' ? text : `${lastTurn.step.text}\n${text}`;
        if (call) lastTurn.step.toolCalls.push(call);
        return;
      }
      const step = makeStep('agent', {
        text,
        reasoning: reasoning && reasoning !== '' ? reasoning : null,
        toolCalls: call ? [call] : [],
        timestamp,
        usage: response ? usageOf(response.usage) : null,
      });
      steps.push(step);
      lastTurn = responseId ? { responseId, step } : null;
      return;
    }

    if (typeof e.observation === 'string') {
      const kind = e.observation;
      const extras = isRecord(e.extras) ? e.extras : {};
      if (SKIPPED_OBSERVATIONS.has(kind)) {
        if (kind === 'agent_state_changed' && typeof extras.agent_state === 'string') lastState = extras.agent_state;
        skipped++;
        return;
      }
      const cause = e.cause === undefined || e.cause === null ? null : String(e.cause);
      const toolCallId = (cause !== null ? callByAction.get(cause) : undefined) ?? str(meta?.tool_call_id);
      const content = str(e.content) ?? str(e.message) ?? '';
      steps.push(
        makeStep('tool', {
          observations: [{ toolCallId, content: observationText(kind, content, extras), isError: isErrorObservation(kind, e, extras) }],
          timestamp,
        }),
      );
      if (kind === 'error' && lastState === null) lastState = 'error';
      return;
    }
    fail(at, 'expected an OpenHands event: an object with "action" or "observation"');
  });

  const model = [...models].sort((a, b) => b[1] - a[1])[0]?.[0] ?? str(metadata?.llm_model);
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const conversationId = str(metadata?.conversation_id) ?? sessionIdOf(path);
  const title = str(metadata?.title);
  const usage = sumUsage(steps.map((s) => s.usage));
  const metaCost = asCount(metadata?.accumulated_cost);
  const totalCost = cost ?? (metaCost !== null && metaCost > 0 ? metaCost : null);
  const trajectory = buildTrajectory({
    format: 'openhands',
    task: { name: instruction.trim() !== '' ? promptTaskName(instruction) : (title ?? conversationId ?? 'openhands-session'), instruction },
    policy: { model, agent: 'openhands' },
    extra: {
      externalId: conversationId,
      usage:
        usage || totalCost !== null
          ? {
              promptTokens: usage?.promptTokens ?? null,
              completionTokens: usage?.completionTokens ?? null,
              costUsd: totalCost ?? usage?.costUsd ?? null,
            }
          : null,
      submission,
      exitStatus: exitStatus ?? lastState,
      startedAt: stamps[0] ?? null,
      endedAt: stamps.length > 1 ? (stamps[stamps.length - 1] ?? null) : null,
      metadata: compact({
        title: title ?? undefined,
        repository: str(metadata?.selected_repository) ?? undefined,
        branch: str(metadata?.selected_branch) ?? undefined,
        events: events.length,
        bookkeepingEvents: skipped > 0 ? skipped : undefined,
        finalAgentState: lastState ?? undefined,
      }),
    },
  });
  return { ...trajectory, steps: indexSteps(steps) };
}

/** `sessions/<id>/events/12.json` or `sessions/<id>`: the session id; a `trajectory-<id>.json` download: its id. */
function sessionIdOf(path: string): string | null {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  const last = parts[parts.length - 1] ?? '';
  const download = /^trajectory-(.+)\.json$/.exec(last);
  if (download) return download[1]!;
  if (last === 'events') return parts[parts.length - 2] ?? null;
  return null;
}

async function* parseDir(dir: SourceDir): AsyncIterable<ParsedItem> {
  const entries = await dir.list();
  const events = entries
    .map((e) => ({ e, m: EVENT_FILE.exec(e) }))
    .filter((x): x is { e: string; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
  if (events.length === 0) {
    yield errorItem(dir.path, 'expected an OpenHands session folder: events/<n>.json files');
    return;
  }
  const values: unknown[] = [];
  for (const { e } of events) {
    const file = await dir.file(e);
    const parsed = file ? parseJson(await file.readText()) : null;
    if (!parsed || !parsed.ok) {
      yield errorItem(e, parsed ? `line ${parsed.line}: ${parsed.message}` : 'unreadable');
      return;
    }
    values.push(parsed.value);
  }
  let metadata: Json | null = null;
  const metaFile = entries.includes('metadata.json') ? await dir.file('metadata.json') : null;
  if (metaFile) {
    const parsed = parseJson(await metaFile.readText());
    if (parsed.ok && isRecord(parsed.value)) metadata = parsed.value;
  }
  const name = dir.path.replace(/[\\/]+$/, '');
  const sessionPath = entries.some((e) => e.startsWith('events/')) ? `${name}/events` : name;
  yield wholeFileItem(() => openHandsTrajectory(values, sessionPath, metadata, (i) => events[i]!.e));
}

export const openHandsImporter: Importer = {
  format: 'openhands',
  detect(probe) {
    if (probe.kind === 'dir') return looksLikeOpenHandsDir(probe.entries);
    const head = fileHead(probe);
    return head !== null && looksLikeOpenHands(head);
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
    try {
      yield wholeFileItem(() => openHandsTrajectory(doc.value, input.file.path));
    } catch (error) {
      if (error instanceof ItemError) yield errorItem(error.pointer, error.message);
      else throw error;
    }
  },
};
