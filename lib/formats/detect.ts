import type { Importer, Probe } from './importer';
import { importers } from './registry';
import type { FormatName } from './trajectory';

/**
 * Which importer reads a probe. Detectors are tried most specific first, so a generic
 * sniffer (a chat-message list) never claims a file a specific one recognises:
 *
 * 1. terminal-bench  directory: a Terminal-Bench 1.x trial, task or run (results.json + sessions/ or commands.txt),
 *                    or a file that is one of its results.json (refused: verdicts, not steps)
 * 2. harbor          directory: a trial (config.json/result.json + agent/ or verifier/) or a job of trials
 * 3. inspect         zip magic + Inspect entry names, or a JSON log with eval/status/run_id
 * 4. asciinema       first line is an asciicast v2/v3 header
 * 5. atif            "schema_version": "ATIF-v..."
 * 6. claude-code     JSONL events with parentUuid + sessionId (or a summary / file-history-snapshot first line)
 * 7. codex           JSONL rollout lines {timestamp, type: session_meta | response_item | ..., payload}
 * 8. openhands       a list of OpenHands events ({id, source, action | observation}), or a session folder of
 *                    events/<n>.json (before cline and the chat formats: its model responses hold chat messages)
 * 9. aider           a `.aider.chat.history.md` (`# aider chat started at`, `#### ` prompts)
 * 10. cline          a task folder (api_conversation_history.json + companions), or a message array with Cline's
 *                    modelInfo, `[tool for 'x'] Result:` texts or <environment_details>
 * 11. mini-swe-agent  "trajectory_format": "mini-swe-agent-..." (before swe-agent, whose shape it resembles)
 * 12. swe-agent       .traj: trajectory/history/info
 * 13. tau2            simulations / tasks of a tau2 results file
 * 14. tau-bench       a list of task results with traj
 * 15. anthropic       Messages API shapes (content blocks: tool_use / tool_result)
 * 16. openai         Chat Completions messages (the most generic: last)
 *
 * Detection reads content only (head text, zip magic, directory entries), never the name.
 */
export const detectionOrder: readonly FormatName[] = [
  'terminal-bench',
  'harbor',
  'inspect',
  'asciinema',
  'atif',
  'claude-code',
  'codex',
  'openhands',
  'aider',
  'cline',
  'mini-swe-agent',
  'swe-agent',
  'tau2',
  'tau-bench',
  'anthropic',
  'openai',
];

/** The first format in `detectionOrder` whose importer (from `available`) claims the probe. */
export function detectWith(probe: Probe, available: Partial<Record<FormatName, Importer>>): FormatName | null {
  for (const format of detectionOrder) {
    const importer = available[format];
    if (!importer) continue;
    try {
      if (importer.detect(probe)) return format;
    } catch {
      // a detector that throws on odd input simply does not claim it
    }
  }
  return null;
}

export function detectFormat(probe: Probe): FormatName | null {
  return detectWith(probe, importers);
}

/**
 * Formats whose one file is a stream of events, one per line (a cast, a session log): an NDJSON
 * body in one of them is one document, never a batch of one-line documents.
 */
export const eventStreamFormats: readonly FormatName[] = ['asciinema', 'claude-code', 'codex'];

/** What a format is called in messages. */
const FORMAT_LABELS: Record<FormatName, string> = {
  harbor: 'Harbor',
  'terminal-bench': 'Terminal-Bench',
  atif: 'ATIF',
  asciinema: 'asciinema',
  inspect: 'Inspect',
  'swe-agent': 'SWE-agent',
  'mini-swe-agent': 'mini-swe-agent',
  'tau-bench': 'tau-bench',
  tau2: 'tau2',
  openai: 'OpenAI chat',
  anthropic: 'Anthropic messages',
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  cline: 'Cline',
  openhands: 'OpenHands',
  aider: 'aider',
};

/** Keys that hint at a format in a file no detector claims: the closest format and why. */
const HINTS: { format: FormatName; test: RegExp; why: string }[] = [
  { format: 'openhands', test: /"(action|observation)"\s*:\s*"[a-z_]+"/, why: 'it has OpenHands-style "action"/"observation" events' },
  { format: 'atif', test: /"schema_version"\s*:/, why: 'it has a "schema_version" but not an ATIF one' },
  { format: 'swe-agent', test: /"trajectory"\s*:/, why: 'it has a "trajectory" key but not SWE-agent\'s steps' },
  { format: 'inspect', test: /"eval"\s*:\s*\{/, why: 'it has an "eval" object but no Inspect samples' },
  { format: 'claude-code', test: /"sessionId"\s*:|"parentUuid"\s*:/, why: 'it has Claude Code session keys but no message events' },
  { format: 'codex', test: /"payload"\s*:\s*\{/, why: 'it has "payload" records but no Codex rollout types' },
  {
    format: 'cline',
    test: /"ts"\s*:\s*\d{12,}\s*,\s*"type"\s*:\s*"(say|ask)"|"files_in_context"\s*:|"model_usage"\s*:/,
    why: 'it is a companion of a Cline task (ui_messages.json or task_metadata.json): import the task folder tasks/<id>/ instead',
  },
  { format: 'tau-bench', test: /"task_id"\s*:/, why: 'it has a "task_id" but no tau-bench trajectory' },
  {
    format: 'openai',
    test: /"(role|messages|content)"\s*:/,
    why: 'it has chat keys ("role", "messages" or "content") but no message list',
  },
  { format: 'asciinema', test: /^\[\s*[\d.]+\s*,\s*"[oirmx]"/m, why: 'it has cast events but no asciicast header' },
];

/**
 * The one refusal for a file no importer reads: `format not recognised (closest: X, because Y)`,
 * X the format whose keys it shares most plausibly, never one error per element.
 */
export function unrecognisedMessage(probe: Probe): string {
  const tail = '; pass --format to force one';
  if (probe.kind === 'dir') {
    return `not a recognised trajectory directory (expected a Harbor trial or job, a Terminal-Bench run or trial, a tau2 run, a Cline task folder or an OpenHands session folder)${tail}`;
  }
  const head = probe.head.replace(/^\uFEFF/, '').trimStart();
  const kind = head.startsWith('{') || head.startsWith('[') ? 'JSON' : head === '' ? 'empty' : 'text';
  const hint = HINTS.find((h) => h.test.test(head));
  if (hint) return `format not recognised (closest: ${FORMAT_LABELS[hint.format]}, because ${hint.why})${tail}`;
  if (kind === 'JSON') {
    const keys = [...head.slice(0, 4096).matchAll(/"([A-Za-z_][\w-]{0,40})"\s*:/g)].map((m) => m[1]!);
    const shown = [...new Set(keys)].slice(0, 6);
    return `format not recognised (closest: none, because its JSON keys${shown.length > 0 ? ` (${shown.join(', ')})` : ''} match no importer's: expected ${detectionOrder.map((f) => FORMAT_LABELS[f]).join(', ')})${tail}`;
  }
  return `format not recognised (closest: none, because it is ${kind === 'empty' ? 'blank' : 'plain text'} with no format's markers: expected ${detectionOrder.map((f) => FORMAT_LABELS[f]).join(', ')})${tail}`;
}
