import { buildTrajectory } from './build-trajectory';
import { promptTaskName } from './chat-conversations';
import { compact } from './chat-fields';
import { indexSteps, makeStep, type StepDraft } from './chat-messages';
import { fileImporter } from './file-importer';
import type { Importer, ParsedItem, SourceFile } from './importer';
import { errorItem, trajectoryItem } from './item';
import type { ToolCall, Usage } from './trajectory';

/**
 * Aider chat histories (`.aider.chat.history.md`), as Aider-AI/aider `aider/io.py` appends them:
 *
 *   `\n# aider chat started at 2025-03-01 09:12:44\n\n`   a session (InputOutput.__init__)
 *   `#### <line>  ` per line of what the user typed        (user_input: "####" prefix, lines joined by "  \n#### ")
 *   the assistant's reply, as plain markdown               (ai_output)
 *   `> <line>  ` per line of tool output                   (tool_output / tool_error / tool_warning / confirm_ask,
 *                                                           append_chat_history(blockquote=True))
 *
 * The reply carries its edits as SEARCH/REPLACE blocks (`path` on the line before the fence,
 * `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`): each becomes an `edit` tool call with the
 * file, the old and new text and a unified diff. The `> ` lines after a reply are its results:
 * `Applied edit to <path>` (or a failed match) answers that file's edit as a `tool` step, the
 * token report (`Tokens: … Cost: $…`) becomes the reply's usage, and the rest (commits, lint and
 * test runs, questions) one `environment` step. The `> ` lines opening a session (version, model,
 * repo) are its metadata; those after a `/run`, `/test` or other command are its output.
 *
 * One step: an agent turn is one assistant reply with its edit blocks as tool calls, each edit's
 * result its own linked `tool` step. One trajectory per session. Policy: the session's
 * `Model:` / `Main model:` line, agent `aider`. Task: the first prompt that is not a command.
 */

const SESSION = /^# aider chat started at (.+?)\s*$/;

export function looksLikeAider(head: string): boolean {
  if (/^# aider chat started at \d{4}-\d\d-\d\d/m.test(head)) return true;
  return head.startsWith('#### ') && (/^<{7} SEARCH\s*$/m.test(head) || /^> Applied edit to /m.test(head));
}

type Block = { kind: 'user' | 'agent' | 'output'; lines: string[]; line: number };

/** A line as written, less Aider's markdown line break (two trailing spaces). */
const unbreak = (line: string) => line.replace(/ {2}$/, '');

function blocksOf(lines: string[], firstLine: number): Block[] {
  const blocks: Block[] = [];
  // inside an edit block of a reply, `> ` lines are its text (a quoted line being replaced); a `#### `
  // line is always the user's (a reply cut off mid-block must not swallow the next prompt)
  let search = false;
  const push = (kind: Block['kind'], text: string, n: number) => {
    const last = blocks[blocks.length - 1];
    if (last && last.kind === kind) last.lines.push(text);
    else blocks.push({ kind, lines: [text], line: n });
  };
  lines.forEach((raw, k) => {
    const n = firstLine + k;
    const line = raw.replace(/\r$/, '');
    const last = blocks[blocks.length - 1];
    if (line.startsWith('#### ') || line === '####') {
      search = false;
      push('user', unbreak(line.slice(5)), n);
      return;
    }
    if (!(last?.kind === 'agent' && search) && (line.startsWith('> ') || line === '>')) {
      search = false;
      push('output', unbreak(line.slice(2)), n);
      return;
    }
    if (line.trim() === '' && (!last || last.kind !== 'agent')) return;
    if (/^<{5,9} SEARCH\s*$/.test(line)) search = true;
    else if (/^>{5,9} REPLACE\s*$/.test(line)) search = false;
    push('agent', line, n);
  });
  for (const b of blocks) while (b.lines.length > 0 && b.lines[b.lines.length - 1]!.trim() === '') b.lines.pop();
  return blocks.filter((b) => b.lines.some((l) => l.trim() !== ''));
}

export interface EditBlock {
  path: string;
  search: string;
  replace: string;
}

/** The SEARCH/REPLACE blocks of a reply, and its text without them. */
export function editBlocks(text: string): { text: string; edits: EditBlock[] } {
  const lines = text.split('\n');
  const edits: EditBlock[] = [];
  const keep: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^<{5,9} SEARCH\s*$/.test(lines[i]!)) {
      keep.push(lines[i]!);
      continue;
    }
    // the file name: the nearest line above that is not a fence or blank, already kept
    let path = '';
    while (keep.length > 0) {
      const above = keep[keep.length - 1]!.trim();
      keep.pop();
      if (above === '' || above.startsWith('```')) continue;
      path = above.replace(/^[#*`\s]+|[*`:\s]+$/g, '');
      break;
    }
    const search: string[] = [];
    const replace: string[] = [];
    let target = search;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (/^={5,9}\s*$/.test(l) && target === search) target = replace;
      else if (/^>{5,9} REPLACE\s*$/.test(l)) break;
      else target.push(l);
    }
    edits.push({ path, search: search.join('\n'), replace: replace.join('\n') });
    i = j;
    if (lines[i + 1]?.trim().startsWith('```')) i++; // the closing fence
  }
  return {
    text: keep
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    edits,
  };
}

/** A unified diff of one edit block (the lines it removes and adds). */
export function editDiff(edit: EditBlock): string {
  const old = edit.search === '' ? [] : edit.search.split('\n');
  const neu = edit.replace === '' ? [] : edit.replace.split('\n');
  return [
    `--- ${old.length === 0 ? '/dev/null' : `a/${edit.path}`}`,
    `+++ b/${edit.path}`,
    `@@ -${old.length === 0 ? 0 : 1},${old.length} +1,${neu.length} @@`,
    ...old.map((l) => `-${l}`),
    ...neu.map((l) => `+${l}`),
  ].join('\n');
}

const TOKENS = /^Tokens: ([\d.,]+)([km]?) sent(?:, [^,]*?cache[^,]*)*, ([\d.,]+)([km]?) received\.(?: Cost: \$([\d.]+) message)?/i;

function count(value: string, unit: string): number {
  const n = Number(value.replace(/,/g, ''));
  return Math.round(unit.toLowerCase() === 'k' ? n * 1000 : unit.toLowerCase() === 'm' ? n * 1_000_000 : n);
}

function usageLine(line: string): Usage | null {
  const m = TOKENS.exec(line);
  if (!m) return null;
  return { promptTokens: count(m[1]!, m[2]!), completionTokens: count(m[3]!, m[4]!), costUsd: m[5] ? Number(m[5]) : null };
}

const EDIT_FAILED = /SEARCH\/REPLACE block(?:s)? failed to match|did not conform to the edit format|Unable to apply edit/i;

function sessionTrajectory(blocks: Block[], startedAt: string, sessionIndex: number) {
  const steps: StepDraft[] = [];
  const header: string[] = [];
  let model: string | null = null;
  let editFormat: string | null = null;
  let instruction = '';
  let lastAgent: StepDraft | null = null;
  let commits = 0;
  let editCount = 0;
  let seenUser = false;

  for (const block of blocks) {
    const text = block.lines.join('\n').trim();
    if (block.kind === 'user') {
      seenUser = true;
      const command = text.startsWith('/');
      if (!command && instruction === '') instruction = text;
      steps.push(makeStep('user', { text }));
      lastAgent = null;
      continue;
    }
    if (block.kind === 'agent') {
      const { text: prose, edits } = editBlocks(block.lines.join('\n'));
      const toolCalls: ToolCall[] = edits.map((e) => ({
        id: `edit-${++editCount}`,
        name: 'edit',
        arguments: { path: e.path, old_str: e.search, new_str: e.replace, diff: editDiff(e) },
      }));
      const step = makeStep('agent', { text: prose, toolCalls });
      steps.push(step);
      lastAgent = step;
      continue;
    }
    // tool output: the session header, a reply's results, or a command's output
    if (!seenUser && steps.length === 0) {
      for (const line of block.lines) {
        const m = /^(?:Main model|Model): (\S+)(?: with (\S+) edit format)?/.exec(line);
        if (m) {
          model ??= m[1]!;
          editFormat ??= m[2] ?? null;
        }
        if (line.trim() !== '') header.push(line.trim());
      }
      continue;
    }
    const rest: string[] = [];
    const open = lastAgent ? [...lastAgent.toolCalls] : [];
    const results = new Map<string, { lines: string[]; isError: boolean }>();
    for (const line of block.lines) {
      const usage = usageLine(line);
      if (usage && lastAgent) {
        lastAgent.usage = usage;
        continue;
      }
      if (/^Commit [0-9a-f]{7,}/.test(line)) commits++;
      const applied = /^Applied edit to (.+?)\s*$/.exec(line);
      if (applied && open.length > 0) {
        for (const call of open.filter((c) => (c.arguments as { path: string }).path === applied[1]))
          results.set(call.id!, { lines: [line], isError: false });
        continue;
      }
      if (lastAgent && open.length > 0 && EDIT_FAILED.test(line)) {
        // a failed match: it answers the reply's edits not applied
        for (const call of open) if (!results.has(call.id!)) results.set(call.id!, { lines: [line], isError: true });
        continue;
      }
      rest.push(line);
    }
    for (const call of open) {
      const r = results.get(call.id!);
      if (r) steps.push(makeStep('tool', { observations: [{ toolCallId: call.id, content: r.lines.join('\n'), isError: r.isError }] }));
    }
    const restText = rest.join('\n').trim();
    if (restText !== '') {
      // a command's output (/run, /test) or a failed edit's explanation answers nothing by id: the environment speaking
      steps.push(makeStep('environment', { text: restText }));
    }
    lastAgent = null;
  }

  const trajectory = buildTrajectory({
    format: 'aider',
    task: { name: instruction.trim() !== '' ? promptTaskName(instruction) : `aider-session-${startedAt}`, instruction },
    policy: { model, agent: 'aider' },
    extra: {
      externalId: `${startedAt}#${sessionIndex}`,
      startedAt,
      metadata: compact({
        editFormat: editFormat ?? undefined,
        header: header.length > 0 ? header : undefined,
        commits: commits > 0 ? commits : undefined,
      }),
    },
  });
  const usages = steps.map((s) => s.usage).filter((u): u is Usage => u !== null);
  const usage =
    usages.length === 0
      ? null
      : {
          promptTokens: usages.reduce((a, u) => a + (u.promptTokens ?? 0), 0),
          completionTokens: usages.reduce((a, u) => a + (u.completionTokens ?? 0), 0),
          costUsd: usages.some((u) => u.costUsd !== null) ? Number(usages.reduce((a, u) => a + (u.costUsd ?? 0), 0).toFixed(6)) : null,
        };
  return { ...trajectory, usage, steps: indexSteps(steps) };
}

/** `2025-03-01 09:12:44` (local time, as Aider writes it) as `2025-03-01T09:12:44`. */
function isoLocal(stamp: string): string {
  return /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(stamp) ? stamp.replace(' ', 'T') : stamp;
}

async function* parseHistory(file: SourceFile): AsyncIterable<ParsedItem> {
  const lines = (await file.readText()).split('\n');
  const sessions: { start: number; startedAt: string }[] = [];
  lines.forEach((line, i) => {
    const m = SESSION.exec(line.replace(/\r$/, ''));
    if (m) sessions.push({ start: i, startedAt: isoLocal(m[1]!) });
  });
  // a history whose header was cut off: one session from the top
  if (sessions.length === 0 || (sessions[0]!.start > 0 && lines.slice(0, sessions[0]!.start).some((l) => l.startsWith('#### '))))
    sessions.unshift({ start: -1, startedAt: '' });
  let yielded = 0;
  let empty = 0;
  for (let s = 0; s < sessions.length; s++) {
    const { start, startedAt } = sessions[s]!;
    const end = sessions[s + 1]?.start ?? lines.length;
    const body = lines.slice(start + 1, end);
    const blocks = blocksOf(body, start + 2);
    const where = start === -1 ? 'line 1' : `line ${start + 1}`;
    if (!blocks.some((b) => b.kind !== 'output')) {
      empty++; // aider started and quit with no chat: nothing to review
      continue;
    }
    yielded++;
    yield trajectoryItem(sessionTrajectory(blocks, startedAt, s), where);
  }
  if (yielded === 0)
    yield errorItem(
      'line 1',
      empty > 0
        ? `no chat in any of the ${empty} aider session${empty === 1 ? '' : 's'} (each only opened and closed)`
        : 'expected an aider chat history: "# aider chat started at" sessions with "#### " prompts',
    );
}

export const aiderImporter: Importer = fileImporter({
  format: 'aider',
  fileLabel: 'an aider .aider.chat.history.md file',
  looksLike: looksLikeAider,
  parseFile: parseHistory,
});
