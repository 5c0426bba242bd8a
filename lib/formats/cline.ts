import { buildTrajectory } from './build-trajectory';
import { readJsonDocument } from './chat-documents';
import { promptTaskName } from './chat-conversations';
import { compact } from './chat-fields';
import { describe, expectRecord, fail, idString, indexSteps, makeStep, sumUsage, timestampOf, type StepDraft } from './chat-messages';
import { fileImporter, oneItemPerFile, wholeFileItem } from './file-importer';
import type { Importer, ParsedItem, SourceDir } from './importer';
import { errorItem } from './item';
import { joinPointer } from './json-pointer';
import { asCount, isRecord, parseJson } from './parse-json';
import type { ToolCall, Trajectory } from './trajectory';

/**
 * Cline / Roo Code task histories: `<globalStorage>/tasks/<task id>/api_conversation_history.json`,
 * a JSON array of `ClineStorageMessage` (cline/cline apps/vscode/src/shared/messages/content.ts):
 * Anthropic `MessageParam`s `{role, content: string | blocks}` plus Cline's own keys: `ts` (ms),
 * `modelInfo {modelId, providerId, mode}`, `metrics {tokens {prompt, completion, cached}, cost}`, `id`.
 *
 * Tools come in three shapes. The XML protocol (Cline up to 3.x, Roo Code): the assistant writes
 * `<read_file><path>x</path></read_file>` in its text. Current Cline: native `tool_use` blocks.
 * Either way the result comes back in the next user message as a text block
 * `[read_file for 'x'] Result:` followed by the result (in the same block, or in the blocks after
 * it); each result is linked to the earliest unanswered call of that tool. `tool_result` blocks
 * (Roo's native protocol) are linked by id. `<thinking>` in the assistant's text is its reasoning.
 * In user text, `<task>…</task>` is the instruction and `<environment_details>` (the editor state
 * Cline appends) is dropped. The last `attempt_completion` result is the submission.
 * Policy: `modelInfo.modelId` (provider in metadata), agent `cline` (or `roo-code` when the path
 * is under Roo's storage).
 *
 * One step: an agent turn is one assistant message with its tool calls; each `[tool] Result:` (or
 * `tool_result`) is its own `tool` step linked to its call; the user's own text a `user` step.
 */

type Json = Record<string, unknown>;

const TOOL_NAMES = [
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'codebase_search',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'new_task',
  'switch_mode',
  'fetch_instructions',
  'update_todo_list',
  'web_fetch',
  'load_mcp_documentation',
  'condense',
  'summarize_task',
  'new_rule',
  'report_bug',
];
const TOOL_XML = new RegExp(`<(${TOOL_NAMES.join('|')})>([\\s\\S]*?)</\\1>`, 'g');
const PARAM_XML = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
const RESULT_MARKER = /^\[([a-z_]+)(?: for [\s\S]*?)?\] Result:/;

export function looksLikeCline(head: string): boolean {
  if (!head.startsWith('[')) return false;
  if (!/"role"\s*:\s*"(user|assistant)"/.test(head)) return false;
  return (
    /"modelInfo"\s*:\s*\{[^}]*"modelId"/.test(head) ||
    /\] Result:/.test(head) ||
    /<task>\\n/.test(head) ||
    /<environment_details>/.test(head)
  );
}

/** Tool calls written as XML in an assistant's text, and the text without them. */
export function xmlToolCalls(text: string): {
  text: string;
  calls: { name: string; params: Record<string, string> }[];
  thinking: string | null;
} {
  const calls: { name: string; params: Record<string, string> }[] = [];
  let thinking: string | null = null;
  let rest = text.replace(/<thinking>([\s\S]*?)<\/thinking>/g, (_, inner: string) => {
    thinking = thinking ? `${thinking}\n\n${inner.trim()}` : inner.trim();
    return '';
  });
  rest = rest.replace(TOOL_XML, (_, name: string, body: string) => {
    const params: Record<string, string> = {};
    for (const m of body.matchAll(PARAM_XML)) params[m[1]!] = m[2]!.replace(/^\n/, '').replace(/\n$/, '');
    calls.push({ name, params });
    return '';
  });
  return { text: rest.replace(/\n{3,}/g, '\n\n').trim(), calls, thinking };
}

function blockText(block: Json): string | null {
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'image') return '[image]';
  if (block.type === 'document') return '[document]';
  return null;
}

function stripEnvironment(text: string): string {
  return text.replace(/<environment_details>[\s\S]*?(<\/environment_details>|$)/g, '').trim();
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isRecord(b) ? blockText(b) : typeof b === 'string' ? b : null))
    .filter((t): t is string => t !== null)
    .join('\n');
}

export function clineTrajectory(value: unknown, path: string) {
  if (!Array.isArray(value)) fail('/', `expected the array of messages of api_conversation_history.json, found ${describe(value)}`);
  const steps: StepDraft[] = [];
  const open: ToolCall[] = []; // XML calls not yet answered, oldest first
  let model: string | null = null;
  let provider: string | null = null;
  let mode: string | null = null;
  let instruction = '';
  let submission: string | null = null;
  let xmlCalls = 0;

  value.forEach((raw, i) => {
    const at = joinPointer('', i);
    const m = expectRecord(raw, at, 'a message object');
    if (m.role !== 'user' && m.role !== 'assistant')
      fail(joinPointer(at, 'role'), `expected role "user" or "assistant", found ${JSON.stringify(m.role)}`);
    const timestamp = timestampOf(m.ts);
    const info = isRecord(m.modelInfo) ? m.modelInfo : null;
    if (info && typeof info.modelId === 'string' && m.role === 'assistant') {
      model ??= info.modelId;
      provider ??= typeof info.providerId === 'string' ? info.providerId : null;
      mode ??= typeof info.mode === 'string' ? info.mode : null;
    }
    const tokens = isRecord(m.metrics) && isRecord(m.metrics.tokens) ? m.metrics.tokens : null;
    const cost = isRecord(m.metrics) ? asCount(m.metrics.cost) : null;
    const usage =
      tokens || cost !== null
        ? { promptTokens: asCount(tokens?.prompt), completionTokens: asCount(tokens?.completion), costUsd: cost }
        : null;
    const blocks: Json[] =
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : Array.isArray(m.content)
          ? m.content.map((b, k) => expectRecord(b, joinPointer(at, 'content', k), 'a content block object'))
          : fail(joinPointer(at, 'content'), `expected content as a string or an array of blocks, found ${describe(m.content)}`);

    if (m.role === 'assistant') {
      const texts: string[] = [];
      const reasoning: string[] = [];
      const toolCalls: ToolCall[] = [];
      for (const b of blocks) {
        if (b.type === 'text' && typeof b.text === 'string') {
          const parsed = xmlToolCalls(b.text);
          if (parsed.text !== '') texts.push(parsed.text);
          if (parsed.thinking) reasoning.push(parsed.thinking);
          for (const c of parsed.calls) {
            const call: ToolCall = { id: `xml-${i}-${toolCalls.length}`, name: c.name, arguments: c.params };
            toolCalls.push(call);
            open.push(call);
            xmlCalls++;
            if (c.name === 'attempt_completion' && typeof c.params.result === 'string') submission = c.params.result;
          }
        } else if (b.type === 'thinking' && typeof b.thinking === 'string') reasoning.push(b.thinking);
        else if (b.type === 'tool_use' && typeof b.name === 'string') {
          const call: ToolCall = { id: idString(b.id) ?? idString(b.call_id), name: b.name, arguments: b.input ?? {} };
          toolCalls.push(call);
          open.push(call); // current Cline answers native calls with `[tool] Result:` text, not tool_result blocks
          if (b.name === 'attempt_completion' && isRecord(b.input) && typeof b.input.result === 'string') submission = b.input.result;
        }
      }
      steps.push(
        makeStep('agent', {
          text: texts.join('\n'),
          reasoning: reasoning.length > 0 ? reasoning.join('\n\n') : null,
          toolCalls,
          timestamp,
          usage,
        }),
      );
      return;
    }

    // user: tool results (marker text + following blocks, or tool_result blocks), then the user's own text
    const own: string[] = [];
    let result: { call: ToolCall | null; name: string; parts: string[] } | null = null;
    const flush = () => {
      if (!result) return;
      steps.push(
        makeStep('tool', {
          observations: [
            {
              toolCallId: result.call?.id ?? null,
              content: result.parts.join('\n').trim(),
              isError: /^\[ERROR\]|^Error/.test(result.parts[0] ?? ''),
            },
          ],
          timestamp,
        }),
      );
      result = null;
    };
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        flush();
        steps.push(
          makeStep('tool', {
            observations: [
              { toolCallId: idString(b.tool_use_id), content: stripEnvironment(resultText(b.content)), isError: b.is_error === true },
            ],
            timestamp,
          }),
        );
        continue;
      }
      const text = blockText(b);
      if (text === null) continue;
      const marker = RESULT_MARKER.exec(text.trimStart());
      if (marker) {
        flush();
        const name = marker[1]!;
        // the earliest unanswered call of that tool (`[subagents]` answers `use_subagents`), else the earliest unanswered
        let k = open.findIndex((c) => c.name === name || c.name === `use_${name}`);
        if (k === -1 && open.length > 0) k = 0;
        const call = k === -1 ? null : open.splice(k, 1)[0]!;
        const inline = stripEnvironment(
          text
            .trimStart()
            .slice(marker[0].length)
            .replace(/^[ \t]*\r?\n/, ''),
        );
        result = { call, name, parts: inline === '' ? [] : [inline] };
        continue;
      }
      const clean = stripEnvironment(text);
      if (clean === '') continue;
      if (result) result.parts.push(clean);
      else own.push(clean);
    }
    flush();
    const userText = own.join('\n');
    if (userText !== '') {
      const task = /<task>\n?([\s\S]*?)\n?<\/task>/.exec(userText);
      if (instruction === '') instruction = task ? task[1]!.trim() : userText;
      steps.push(makeStep('user', { text: task ? userText.replace(task[0], task[1]!.trim()).trim() : userText, timestamp }));
    }
  });

  const agent = /roo-cline|roo-code|rooveterinaryinc/i.test(path) ? 'roo-code' : 'cline';
  // tasks/<task id>/api_conversation_history.json: the folder is the task's id
  const parts = path.split(/[\\/]/);
  const taskId =
    parts.length >= 2 && /api_conversation_history\.json$/.test(parts[parts.length - 1]!) ? (parts[parts.length - 2] ?? null) : null;
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const trajectory = buildTrajectory({
    format: 'cline',
    task: { name: instruction.trim() !== '' ? promptTaskName(instruction) : 'cline-task', instruction },
    policy: { model, agent },
    extra: {
      externalId: taskId || null,
      usage: sumUsage(steps.map((s) => s.usage)),
      submission,
      startedAt: stamps[0] ?? null,
      endedAt: stamps.length > 1 ? (stamps[stamps.length - 1] ?? null) : null,
      metadata: compact({ provider, mode, xmlToolCalls: xmlCalls > 0 ? xmlCalls : undefined }),
    },
  });
  return { ...trajectory, steps: indexSteps(steps) };
}

const clineFile = fileImporter({
  format: 'cline',
  fileLabel: 'a Cline api_conversation_history.json file',
  looksLike: looksLikeCline,
  parseFile: oneItemPerFile(readJsonDocument, (doc, path) => wholeFileItem(() => clineTrajectory(doc.value, path))),
});

const HISTORY = 'api_conversation_history.json';

/**
 * A whole task folder, `tasks/<task id>/`: the conversation (`api_conversation_history.json`) read
 * as above, enriched by its companions, which are never imported on their own:
 *
 *   ui_messages.json     ClineMessage[] {ts, type: "say" | "ask", say?, ask?, text?} (cline/cline
 *                        apps/vscode/src/shared/ExtensionMessage.ts): the task's first and last
 *                        timestamps, and each `say: "api_req_started"` request's ClineApiReqInfo
 *                        {tokensIn, tokensOut, cost} summed as the run's usage when the history has none
 *   task_metadata.json   TaskMetadata {files_in_context [{path, record_source}], model_usage
 *                        [{model_id, model_provider_id, mode}], environment_history [{cline_version}]}
 *                        (apps/vscode/src/core/context/context-tracking/ContextTrackerTypes.ts): the
 *                        files read and edited, the model when the history names none, Cline's version
 *   focus_chain_taskid_<id>.md   the focus-chain checklist (core/task/focus-chain/file-utils.ts):
 *                        its items and whether each is done
 *
 * Other companions (context_history.json, checkpoints, settings) are known and skipped.
 */
export function looksLikeClineTaskDir(entries: string[]): boolean {
  return entries.includes(HISTORY);
}

async function readJson(dir: SourceDir, rel: string, entries: string[]): Promise<unknown> {
  if (!entries.includes(rel)) return undefined;
  const file = await dir.file(rel);
  if (!file) return undefined;
  const parsed = parseJson(await file.readText());
  return parsed.ok ? parsed.value : undefined;
}

/** What the task folder's companions add to the conversation's trajectory. */
export function enrichFromCompanions(
  t: Trajectory,
  companions: { uiMessages?: unknown; taskMetadata?: unknown; focusChain?: string | null },
): Trajectory {
  const metadata: Record<string, unknown> = { ...t.metadata };
  let { usage, startedAt, endedAt, policy } = t;
  const ui = Array.isArray(companions.uiMessages) ? companions.uiMessages.filter(isRecord) : [];
  if (ui.length > 0) {
    const stamps = ui.map((m) => timestampOf(m.ts)).filter((x): x is string => x !== null);
    startedAt = stamps[0] ?? startedAt;
    if (stamps.length > 1) endedAt = stamps[stamps.length - 1] ?? endedAt;
    let tokensIn = 0;
    let tokensOut = 0;
    let cost = 0;
    let requests = 0;
    for (const m of ui) {
      if (m.say !== 'api_req_started' || typeof m.text !== 'string') continue;
      const parsed = parseJson(m.text);
      if (!parsed.ok || !isRecord(parsed.value)) continue;
      requests++;
      tokensIn += asCount(parsed.value.tokensIn) ?? 0;
      tokensOut += asCount(parsed.value.tokensOut) ?? 0;
      cost += asCount(parsed.value.cost) ?? 0;
    }
    if (requests > 0) {
      metadata.apiRequests = requests;
      usage = {
        promptTokens: usage?.promptTokens ?? tokensIn,
        completionTokens: usage?.completionTokens ?? tokensOut,
        costUsd: usage?.costUsd ?? Number(cost.toFixed(6)),
      };
    }
    metadata.uiMessages = ui.length;
  }
  const tm = isRecord(companions.taskMetadata) ? companions.taskMetadata : null;
  if (tm) {
    const files = Array.isArray(tm.files_in_context) ? tm.files_in_context.filter(isRecord) : [];
    const pathsWhere = (source: string) =>
      [...new Set(files.filter((f) => f.record_source === source && typeof f.path === 'string').map((f) => f.path as string))].sort();
    const edited = pathsWhere('cline_edited');
    const read = pathsWhere('read_tool');
    const mentioned = pathsWhere('file_mentioned');
    if (edited.length > 0) metadata.filesEdited = edited;
    if (read.length > 0) metadata.filesRead = read;
    if (mentioned.length > 0) metadata.filesMentioned = mentioned;
    const models = Array.isArray(tm.model_usage) ? tm.model_usage.filter(isRecord) : [];
    const firstModel = models.find((m) => typeof m.model_id === 'string');
    if (policy.model === null && firstModel) policy = { ...policy, model: firstModel.model_id as string };
    if (firstModel && metadata.provider === undefined && typeof firstModel.model_provider_id === 'string')
      metadata.provider = firstModel.model_provider_id;
    const env = Array.isArray(tm.environment_history) ? tm.environment_history.filter(isRecord) : [];
    const version = env.map((e) => e.cline_version).find((v): v is string => typeof v === 'string');
    if (version) metadata.clineVersion = version;
  }
  if (companions.focusChain) {
    const items = [...companions.focusChain.matchAll(/^\s*- \[([ xX])\] (.+)$/gm)].map((m) => ({ done: m[1] !== ' ', text: m[2]!.trim() }));
    if (items.length > 0) metadata.focusChain = items;
  }
  return { ...t, usage, startedAt, endedAt, policy, metadata };
}

async function* parseTaskDir(dir: SourceDir): AsyncIterable<ParsedItem> {
  const entries = await dir.list();
  const history = await dir.file(HISTORY);
  if (!history) {
    yield errorItem(dir.path, `expected a Cline task folder with ${HISTORY}`);
    return;
  }
  const doc = await readJsonDocument(history);
  if (!doc.ok) {
    yield errorItem(`${HISTORY} ${doc.where}`, doc.message);
    return;
  }
  const taskId =
    dir.path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? '';
  const uiMessages = await readJson(dir, 'ui_messages.json', entries);
  const taskMetadata = await readJson(dir, 'task_metadata.json', entries);
  const chainRel = entries.find((e) => /^focus_chain_taskid_[^/]*\.md$/.test(e));
  const chainFile = chainRel ? await dir.file(chainRel) : null;
  const focusChain = chainFile ? await chainFile.readText() : null;
  const item = wholeFileItem(() =>
    enrichFromCompanions(clineTrajectory(doc.value, `${dir.path}/${HISTORY}`), { uiMessages, taskMetadata, focusChain }),
  );
  if (!item.ok && item.where.startsWith('/')) yield errorItem(`${HISTORY} ${item.where}`, item.message);
  else yield item.ok ? { ...item, trajectory: { ...item.trajectory, externalId: item.trajectory.externalId ?? (taskId || null) } } : item;
}

export const clineImporter: Importer = {
  format: 'cline',
  detect(probe) {
    if (probe.kind === 'dir') return looksLikeClineTaskDir(probe.entries);
    return clineFile.detect(probe);
  },
  async *parse(input) {
    if (input.kind === 'dir') yield* parseTaskDir(input.dir);
    else yield* clineFile.parse(input);
  },
};
