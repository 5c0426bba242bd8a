import { anthropicMessageToSteps } from './anthropic';
import { readObjectLines, type ObjectLine } from './chat-documents';
import { promptTaskName } from './chat-conversations';
import { compact } from './chat-fields';
import { ItemError, indexSteps, makeStep, sumUsage, timestampOf, type StepDraft } from './chat-messages';
import { fileImporter, oneItemPerFile, wholeFileItem } from './file-importer';
import type { Importer } from './importer';
import { isRecord } from './parse-json';
import { buildTrajectory } from './build-trajectory';

/**
 * Claude Code session logs (`~/.claude/projects/<encoded cwd>/<session id>.jsonl`, and a
 * sub-agent's `subagents/agent-<id>.jsonl`): one event per line,
 *
 *   {type: "user" | "assistant", uuid, parentUuid, isSidechain, sessionId, timestamp, cwd, version,
 *    gitBranch, message: {role, content: string | Anthropic blocks, model?, id?, usage?}, isMeta?,
 *    isCompactSummary?, toolUseResult?}
 *   {type: "summary", summary, leafUuid}            a title Claude Code wrote for the session
 *   {type: "system", subtype, content}              e.g. the compact boundary
 *   {type: "file-history-snapshot" | "mode" | "progress", ...}   ignored
 *
 * An assistant reply is streamed as several lines sharing `message.id` (one content block each):
 * they become one agent step. Tool results come back as user lines of `tool_result` blocks, linked
 * to their calls by `tool_use_id`. Sub-agent (Task) lines carry `isSidechain: true`: they stay in
 * the order they were written, their agent text marked `[sub-agent]` and their prompt a system
 * step, so the review sees what the sub-agent did; a sub-agent's own file (all sidechain) is read
 * as a session of its own, its prompt the instruction. Meta lines (`isMeta`, the local-command caveat)
 * are skipped; slash commands and compact summaries are system steps. Hook feedback (a blocking
 * Stop hook's "Stop hook feedback: …" user line, meta or not; other hooks' "<Event> hook …" lines,
 * `system` hook summaries such as `stop_hook_summary` and hook `attachment` lines) is a `hook` step,
 * so a reviewer sees why the agent went on. One trajectory per file;
 * duplicate lines (same uuid) count once. Policy: the assistant's `message.model`, agent
 * `claude-code`. Task: the first real user prompt (so sessions on the same prompt group).
 *
 * One step: an agent turn is one assistant message (its streamed lines merged) with its tool calls;
 * each `tool_result` is its own `tool` step linked by `tool_use_id`; each hook message a `hook` step.
 */

type Json = Record<string, unknown>;

/** Sniffs the head of a Claude Code session: events with parentUuid/sessionId, or its summary / snapshot lines. */
export function looksLikeClaudeCode(head: string): boolean {
  if (!head.startsWith('{')) return false;
  const first = head.split('\n', 1)[0] ?? '';
  if (/^\{"type"\s*:\s*"(summary|file-history-snapshot)"/.test(first)) return true;
  if (/^\{"type"\s*:\s*"mode"/.test(first) && /"sessionId"\s*:/.test(first)) return true;
  return /"parentUuid"\s*:/.test(head) && /"sessionId"\s*:/.test(head) && /"type"\s*:\s*"(user|assistant|system)"/.test(head);
}

const COMMAND_TEXT = /^\s*<(command-name|command-message|local-command-stdout|local-command-stderr)>/;

/**
 * What a hook told the model: Claude Code writes a blocking Stop hook's reason back as a user line
 * "Stop hook feedback:\n[<command>]: <reason>" (often `isMeta`), other hooks as "<Event>[:<tool>] hook
 * <feedback | error | blocking error | additional context>: …" or a `<user-prompt-submit-hook>` block.
 */
const HOOK_TEXT =
  /^\s*(?:(?:Stop|SubagentStop|PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|SessionEnd|Notification|PreCompact)(?::[^\s:]+)? hook (?:feedback|error|blocking error|additional context|success|output)\b|<(?:user-prompt-submit|session-start)-hook>)/i;

/** A plain-text message's text, for lines (meta or not) that may be hook feedback. */
function messageText(message: unknown): string {
  if (!isRecord(message)) return '';
  const c = message.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  if (c.some((b) => isRecord(b) && b.type === 'tool_result')) return '';
  return c
    .map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** A hook step from a `system` line about hooks (`stop_hook_summary`) or a hook `attachment` line. */
function hookEventText(e: Json): string | null {
  if (e.type === 'attachment') {
    const a = isRecord(e.attachment) ? e.attachment : null;
    if (!a || typeof a.type !== 'string' || !/hook/i.test(a.type)) return null;
    const name = [a.hookEvent, a.hookName].find((v): v is string => typeof v === 'string') ?? a.type;
    const content = Array.isArray(a.content)
      ? a.content.filter((x): x is string => typeof x === 'string').join('\n')
      : typeof a.content === 'string'
        ? a.content
        : '';
    const stderr = typeof a.stderr === 'string' ? a.stderr : '';
    const body = [content, stderr].filter((x) => x.trim() !== '').join('\n');
    return body === '' ? null : `${name} hook (${a.type}): ${body}`;
  }
  if (e.type !== 'system' || typeof e.subtype !== 'string' || !/hook/i.test(e.subtype)) return null;
  const parts: string[] = [];
  if (typeof e.content === 'string' && e.content.trim() !== '') parts.push(e.content.trim());
  const commands = Array.isArray(e.hookInfos)
    ? e.hookInfos.map((h) => (isRecord(h) && typeof h.command === 'string' ? h.command : null)).filter((x): x is string => x !== null)
    : [];
  const errors = Array.isArray(e.hookErrors) ? e.hookErrors.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
  for (const err of errors) parts.push(err);
  if (typeof e.stopReason === 'string' && e.stopReason.trim() !== '') parts.push(`stop reason: ${e.stopReason}`);
  if (e.preventedContinuation === true) parts.push('prevented the agent from stopping');
  if (parts.length === 0) return null;
  return `${e.subtype}${commands.length > 0 ? ` (${commands.join(', ')})` : ''}: ${parts.join('\n')}`;
}

function mergeInto(target: StepDraft, next: StepDraft): void {
  if (next.text !== '') target.text = target.text === '' ? next.text : `${target.text}\n${next.text}`;
  if (next.reasoning) target.reasoning = target.reasoning ? `${target.reasoning}\n\n${next.reasoning}` : next.reasoning;
  for (const call of next.toolCalls) target.toolCalls.push(call);
  for (const observation of next.observations) target.observations.push(observation);
  if (next.usage) target.usage = next.usage; // each streamed line repeats the message's usage so far
}

export function claudeCodeTrajectory(events: ObjectLine[], path: string) {
  const steps: StepDraft[] = [];
  const seen = new Set<string>();
  const summaries: string[] = [];
  const models = new Map<string, number>();
  let session: Json | null = null;
  let lastAssistant: { id: string; step: StepDraft } | null = null;
  let sidechainSteps = 0;
  let hookSteps = 0;
  let instruction = '';
  // a sub-agent's own file (subagents/agent-<id>.jsonl) is all sidechain: read it as a session of its own
  const messages = events.filter((e) => e.value.type === 'user' || e.value.type === 'assistant');
  const ownSidechain = messages.length > 0 && messages.every((e) => e.value.isSidechain === true);
  const agentId = ownSidechain && typeof messages[0]!.value.agentId === 'string' ? messages[0]!.value.agentId : undefined;

  for (const { line, value: e } of events) {
    const type = e.type;
    if (type === 'summary') {
      if (typeof e.summary === 'string' && e.summary.trim() !== '') summaries.push(e.summary);
      continue;
    }
    if (type === 'attachment') {
      const hook = hookEventText(e);
      if (hook) {
        steps.push(makeStep('hook', { text: hook, timestamp: timestampOf(e.timestamp) }));
        hookSteps++;
        lastAssistant = null;
      }
      continue;
    }
    if (type !== 'user' && type !== 'assistant' && type !== 'system') continue;
    const uuid = typeof e.uuid === 'string' ? e.uuid : null;
    if (uuid) {
      if (seen.has(uuid)) continue;
      seen.add(uuid);
    }
    if (!session && typeof e.sessionId === 'string') session = e;
    const timestamp = timestampOf(e.timestamp);
    const sidechain = e.isSidechain === true && !ownSidechain;
    if (type === 'system') {
      const hook = hookEventText(e);
      if (hook) {
        steps.push(makeStep('hook', { text: hook, timestamp }));
        hookSteps++;
        lastAssistant = null;
        continue;
      }
      const content = typeof e.content === 'string' ? e.content : '';
      if (content.trim() !== '') steps.push(makeStep('system', { text: content, timestamp }));
      lastAssistant = null;
      continue;
    }
    if (type === 'user') {
      // hook feedback the model acted on (often written as a meta line): its own kind of step
      const text = messageText(e.message);
      if (HOOK_TEXT.test(text)) {
        steps.push(makeStep('hook', { text: text.trim(), timestamp }));
        hookSteps++;
        lastAssistant = null;
        continue;
      }
    }
    if (e.isMeta === true) continue;
    if (!isRecord(e.message)) throw new ItemError(`line ${line} /message`, `expected the ${type} event's message object`);
    const message = e.message;
    let drafts: StepDraft[];
    try {
      drafts = anthropicMessageToSteps({ ...message, role: message.role ?? type }, '/message');
    } catch (error) {
      if (error instanceof ItemError) throw new ItemError(`line ${line} ${error.pointer}`, error.message);
      throw error;
    }
    for (const d of drafts) d.timestamp = timestamp;

    if (type === 'assistant') {
      const model = typeof message.model === 'string' && message.model !== '<synthetic>' ? message.model : null;
      if (model && !sidechain) models.set(model, (models.get(model) ?? 0) + 1);
      const step = drafts[0]!;
      if (sidechain && step.text !== '') step.text = `[sub-agent] ${step.text}`;
      const id = typeof message.id === 'string' ? message.id : null;
      if (id && lastAssistant && lastAssistant.id === id) {
        mergeInto(lastAssistant.step, step);
        continue;
      }
      steps.push(step);
      if (sidechain) sidechainSteps++;
      lastAssistant = id ? { id, step } : null;
      continue;
    }
    lastAssistant = null;
    for (const d of drafts) {
      if (d.source === 'user') {
        if (d.text.trim() === '' && d.toolCalls.length === 0) continue;
        if (sidechain) {
          d.source = 'system';
          d.text = `[sub-agent prompt] ${d.text}`;
        } else if (e.isCompactSummary === true || COMMAND_TEXT.test(d.text)) {
          d.source = 'system';
        } else if (instruction === '') instruction = d.text;
      }
      if (sidechain) sidechainSteps++;
      steps.push(d);
    }
  }

  const sessionId = session && typeof session.sessionId === 'string' ? session.sessionId : null;
  const model = [...models].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  const name = instruction.trim() !== '' ? promptTaskName(instruction) : (summaries[0] ?? sessionId ?? path);
  const trajectory = buildTrajectory({
    format: 'claude-code',
    task: { name, instruction },
    policy: { model, agent: 'claude-code' },
    extra: {
      externalId: sessionId,
      usage: sumUsage(steps.map((s) => s.usage)),
      startedAt: stamps[0] ?? null,
      endedAt: stamps.length > 1 ? (stamps[stamps.length - 1] ?? null) : null,
      metadata: compact({
        sessionId,
        version: session?.version,
        cwd: session?.cwd,
        gitBranch: session?.gitBranch,
        summaries: summaries.length > 0 ? summaries : undefined,
        sidechainSteps: sidechainSteps > 0 ? sidechainSteps : undefined,
        hookSteps: hookSteps > 0 ? hookSteps : undefined,
        subAgentId: agentId,
      }),
    },
  });
  return { ...trajectory, steps: indexSteps(steps) };
}

export const claudeCodeImporter: Importer = fileImporter({
  format: 'claude-code',
  fileLabel: 'a Claude Code session .jsonl file',
  looksLike: looksLikeClaudeCode,
  parseFile: oneItemPerFile(
    (file) =>
      readObjectLines(file, {
        notObject: 'expected a JSON object (one Claude Code event per line)',
        empty: 'empty file: expected Claude Code session events',
      }),
    (read, path) => wholeFileItem(() => claudeCodeTrajectory(read.lines, path)),
  ),
});
