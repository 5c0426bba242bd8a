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
 * 8. cline           a message array with Cline's modelInfo, `[tool for 'x'] Result:` texts or <environment_details>
 * 9. mini-swe-agent  "trajectory_format": "mini-swe-agent-..." (before swe-agent, whose shape it resembles)
 * 10. swe-agent       .traj: trajectory/history/info
 * 11. tau2            simulations / tasks of a tau2 results file
 * 12. tau-bench       a list of task results with traj
 * 13. anthropic       Messages API shapes (content blocks: tool_use / tool_result)
 * 14. openai         Chat Completions messages (the most generic: last)
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
