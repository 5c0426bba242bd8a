import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicImporter } from './anthropic';
import { fixtureProbe, fixturesRoot, headProbe } from './chat-testing';
import { detectFormat } from './detect';
import type { Importer } from './importer';
import { miniSweAgentImporter } from './mini-swe-agent';
import { openaiImporter } from './openai';
import { sweAgentImporter } from './swe-agent';
import { tau2Importer } from './tau2';
import { tauBenchImporter } from './tau-bench';

const importers: Importer[] = [sweAgentImporter, miniSweAgentImporter, tauBenchImporter, tau2Importer, openaiImporter, anthropicImporter];
const mine = new Set<string>(importers.map((i) => i.format));

/** Every file below fixtures/<format>/ (and tau2's run directory) with the format it belongs to. */
async function fixtureFiles(): Promise<{ rel: string; format: string }[]> {
  const out: { rel: string; format: string }[] = [];
  for (const entry of await readdir(fixturesRoot, { recursive: true })) {
    const rel = entry.split(path.sep).join('/');
    if (!(await stat(path.join(fixturesRoot, rel))).isFile()) continue;
    out.push({ rel, format: rel.split('/')[0] ?? '' });
  }
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

describe('chat-style detectors', () => {
  it('claim exactly their own fixtures, and nothing of the other formats', async () => {
    const files = await fixtureFiles();
    expect(files.filter((f) => mine.has(f.format)).length).toBeGreaterThanOrEqual(12);
    for (const { rel, format } of files) {
      const probe = await fixtureProbe(rel);
      const claimed = importers.filter((i) => i.detect(probe)).map((i) => i.format);
      expect({ rel, claimed }).toEqual({ rel, claimed: mine.has(format) ? [format] : [] });
    }
  });

  it('resolve through the registry detection order to their own format', async () => {
    for (const { rel, format } of (await fixtureFiles()).filter((f) => mine.has(f.format))) {
      expect({ rel, detected: detectFormat(await fixtureProbe(rel)) }).toEqual({ rel, detected: format });
    }
    expect(detectFormat(await fixtureProbe('tau2/run-dir'))).toBe('tau2');
  });

  it('tau2 alone claims its run directory', async () => {
    const probe = await fixtureProbe('tau2/run-dir');
    expect(importers.filter((i) => i.detect(probe)).map((i) => i.format)).toEqual(['tau2']);
  });

  it('decide from a truncated head', () => {
    const cases: [string, string[]][] = [
      ['{"trajectory": [{"action": "ls", "observation": "a", "thought": "x", "response": "x ```ls``', ['swe-agent']],
      [
        '{"info": {"exit_status": null, "submission": null, "model_stats": {"instance_cost": 0.0, "api_calls": 0}, "mini_version": "1.1.0", "config": {"agent": {"system_templ',
        ['mini-swe-agent'],
      ],
      [
        '[\n  {\n    "task_id": 3,\n    "reward": 0.0,\n    "info": {"task": {"user_id": "a", "actions": [], "instruction": "x", "outputs": []}},\n    "traj": [\n      {"role": "system", "content": "# Airl',
        ['tau-bench'],
      ],
      [
        '{\n  "id": "abc",\n  "task_id": "7",\n  "timestamp": "2025",\n  "start_time": "2025",\n  "end_time": "2025",\n  "duration": 3.0,\n  "termination_reason": "agent_stop",\n  "messages": [{"role": "assistant", "content": "Hi',
        ['tau2'],
      ],
      [
        '{\n  "timestamp": "2025",\n  "info": {"git_commit": "x", "num_trials": 1, "max_steps": 100, "max_errors": 10, "user_info": {"implementation": "user_simulator"}, "agent_info": {"implementation": "llm_agent", "llm": "gpt-4.1"}, "environment_info": {"domain_name": "ret',
        ['tau2'],
      ],
      [
        '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{\\"a',
        ['openai'],
      ],
      [
        '{"model": "claude", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm',
        ['anthropic'],
      ],
      // Inspect-style eval logs and ATIF carry chat messages but are not chat transcripts
      ['{"version": 2, "status": "success", "eval": {"task": "x"}, "samples": [{"messages": [{"role": "user", "content": "hi"}]}]}', []],
      ['{"schema_version": "ATIF-v1.2", "session_id": "s", "steps": [{"source": "user", "message": "hi", "role": "user"}]}', []],
      // a Claude Code session log line (one message per line, not one conversation)
      [
        '{"parentUuid": null, "sessionId": "s", "type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}]}}',
        [],
      ],
      ['plain text that mentions "role": "user"', []],
    ];
    for (const [head, expected] of cases) {
      const claimed = importers.filter((i) => i.detect(headProbe('x.json', head))).map((i) => i.format);
      expect({ head: head.slice(0, 60), claimed }).toEqual({ head: head.slice(0, 60), claimed: expected });
    }
  });
});
