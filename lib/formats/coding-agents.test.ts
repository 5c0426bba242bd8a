import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, only, onlyNormalised, probeOf } from './chat-testing';
import { anthropicImporter } from './anthropic';
import { claudeCodeImporter } from './claude-code';
import { clineImporter, xmlToolCalls } from './cline';
import { codexImporter } from './codex';
import { detectFormat } from './detect';
import { openaiImporter } from './openai';

/*
 * Fixtures written for these tests, reproducing the shapes the tools write:
 * - Claude Code: lines as in real ~/.claude/projects/*.jsonl sessions (version 2.1.x: one content
 *   block per line sharing message.id, tool_result user lines with toolUseResult, isMeta caveats,
 *   file-history-snapshot and summary lines, sub-agent lines with isSidechain/agentId, the
 *   compact_boundary system line), as quoted in public session exports and tools that read them.
 * - Codex CLI: RolloutLine {timestamp, type, payload} of codex-rs/protocol/src/protocol.rs
 *   (session_meta, turn_context, response_item per models.rs ResponseItem, event_msg token_count),
 *   and the older bare layout (meta line, {record_type: "state"}, bare items).
 * - Cline: ClineStorageMessage of cline/cline apps/vscode/src/shared/messages/content.ts (ts,
 *   modelInfo, metrics), tool results as `${toolDescription()} Result:` text blocks as Cline's
 *   and Roo Code's ToolExecutor push them, <task> and <environment_details> user text.
 */
const CLAUDE = 'coding-agents/claude-code-session.jsonl';
const CODEX = 'coding-agents/codex-rollout.jsonl';
const CODEX_LEGACY = 'coding-agents/codex-rollout-legacy.jsonl';
const CLINE = 'coding-agents/cline-api_conversation_history.json';

describe('coding-agent histories: detection', () => {
  it('claims each history for its own importer, never the generic chat importers', async () => {
    expect(detectFormat(await fixtureProbe(CLAUDE))).toBe('claude-code');
    expect(detectFormat(await fixtureProbe(CODEX))).toBe('codex');
    expect(detectFormat(await fixtureProbe(CODEX_LEGACY))).toBe('codex');
    expect(detectFormat(await fixtureProbe(CLINE))).toBe('cline');
    for (const rel of [CLAUDE, CODEX, CODEX_LEGACY, CLINE]) {
      const probe = await fixtureProbe(rel);
      expect([openaiImporter, anthropicImporter].filter((i) => i.detect(probe))).toEqual([]);
      expect([claudeCodeImporter, codexImporter, clineImporter].filter((i) => i.detect(probe))).toHaveLength(1);
    }
    // newer sessions may open with a mode line
    const withMode = memoryInput(
      's.jsonl',
      '{"type":"mode","mode":"normal","sessionId":"x"}\n{"type":"user","uuid":"u","sessionId":"x","message":{"role":"user","content":"hi"}}\n',
    );
    expect(detectFormat(await probeOf(withMode))).toBe('claude-code');
    // a plain Anthropic transcript stays Anthropic
    const plain = memoryInput(
      'a.json',
      JSON.stringify([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] },
      ]),
    );
    expect(detectFormat(await probeOf(plain))).toBe('anthropic');
  });
});

describe('Claude Code sessions', () => {
  it('merges streamed lines, links tool results, keeps the sub-agent sidechain and the model', async () => {
    const t = await onlyNormalised(claudeCodeImporter, await fixtureInput(CLAUDE));
    expect(t.format).toBe('claude-code');
    expect(t.externalId).toBe('2ff46cd5-f4e7-4724-bb20-579dae7956ea');
    expect(t.policy).toEqual({ model: 'claude-opus-4-6', checkpoint: null, agent: 'claude-code' });
    expect(t.task.instruction).toBe('Add a --dry-run flag to scripts/export.py and test it.');
    expect(t.task.name).toMatch(/^add-a-dry-run-flag-to-[0-9a-f]{8}$/);
    expect(t.steps.map((s) => s.source)).toEqual([
      'user',
      'agent',
      'tool',
      'agent',
      'system',
      'agent',
      'tool',
      'agent',
      'tool',
      'agent',
      'tool',
      'system',
      'system',
      'system',
      'agent',
    ]);
    // the three lines of msg_015o are one step: thinking, text, tool call; the usage is the message's last
    expect(t.steps[1]).toMatchObject({
      text: 'Let me look at the script.',
      reasoning: 'I should read the script first.',
      toolCalls: [{ id: 'toolu_01Read', name: 'Read', arguments: { file_path: '/Users/tom/tmp/tenant-library/scripts/export.py' } }],
      usage: { promptTokens: 3, completionTokens: 61, costUsd: null },
    });
    expect(t.steps[2]?.observations).toEqual([
      { toolCallId: 'toolu_01Read', content: '     1→import sys\n     2→def main(): ...\n', isError: false },
    ]);
    expect(t.steps[4]?.text).toBe('[sub-agent prompt] Find the tests for scripts/export.py');
    expect(t.steps[7]?.text).toBe('[sub-agent] The tests are in tests/test_export.py.');
    expect(t.steps[8]?.observations[0]).toMatchObject({ toolCallId: 'toolu_02Task', content: 'The tests are in tests/test_export.py.' });
    expect(t.steps[10]?.observations[0]).toEqual({ toolCallId: 'toolu_03Bash', content: '1 failed, 3 passed', isError: true });
    expect(t.steps[11]?.text).toMatch(/^<command-name>\/compact/);
    expect(t.metadata).toEqual({
      sessionId: '2ff46cd5-f4e7-4724-bb20-579dae7956ea',
      version: '2.1.63',
      cwd: '/Users/tom/tmp/tenant-library',
      gitBranch: 'main',
      summaries: ['Add --dry-run to export script'],
      sidechainSteps: 4,
    });
    expect(t.startedAt).toBe('2026-03-01T22:38:47.557Z');
  });

  it('reads a sub-agent file (all sidechain) as its own session, its prompt the instruction', async () => {
    const side = { isSidechain: true, userType: 'external', sessionId: 'parent-1', agentId: 'a9f4657', version: '2.1.29' };
    const lines = [
      { ...side, parentUuid: null, uuid: 's1', type: 'user', message: { role: 'user', content: 'Find the tests for export.py' } },
      {
        ...side,
        parentUuid: 's1',
        uuid: 's2',
        type: 'assistant',
        message: { id: 'm1', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'tests/test_export.py' }] },
      },
    ];
    const t = only(await collect(claudeCodeImporter, memoryInput('agent-a9f4657.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'))));
    expect(t.task.instruction).toBe('Find the tests for export.py');
    expect(t.steps.map((s) => [s.source, s.text])).toEqual([
      ['user', 'Find the tests for export.py'],
      ['agent', 'tests/test_export.py'],
    ]);
    expect(t.policy.model).toBe('claude-haiku-4-5');
    expect(t.metadata).toMatchObject({ sessionId: 'parent-1', subAgentId: 'a9f4657' });
  });

  it('says where and what for a broken line, a bad event or an empty session', async () => {
    const good = '{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}';
    expect(await collect(claudeCodeImporter, memoryInput('s.jsonl', `${good}\n{"type":"assistant",`))).toEqual([
      { ok: false, where: 'line 2', message: expect.stringMatching(/^invalid JSON at line 2, column \d+/) },
    ]);
    expect(
      errors(
        await collect(
          claudeCodeImporter,
          memoryInput(
            's.jsonl',
            `${good}\n{"type":"assistant","uuid":"a","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","input":{}}]}}`,
          ),
        ),
      ),
    ).toEqual([{ where: 'line 2 /message/content/0/name', message: 'expected the tool name as a non-empty string, found nothing' }]);
    expect(
      errors(await collect(claudeCodeImporter, memoryInput('s.jsonl', '{"type":"summary","summary":"Nothing happened","leafUuid":"x"}\n'))),
    ).toEqual([
      {
        where: '/',
        message:
          'no steps: this claude-code trajectory (task "Nothing happened") records nothing the agent did and no final answer, so it is not imported',
      },
    ]);
  });
});

describe('Codex CLI rollouts', () => {
  it('reads response items, links call_id outputs, unwraps the exec envelope and keeps the model', async () => {
    const t = await onlyNormalised(codexImporter, await fixtureInput(CODEX));
    expect(t.externalId).toBe('0199a213-81c0-7800-8aa1-bbab2a035a53');
    expect(t.policy).toEqual({ model: 'gpt-5-codex', checkpoint: null, agent: 'codex' });
    expect(t.task.instruction).toBe('Make the date parser accept ISO week dates like 2025-W41-5.');
    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent', 'tool', 'agent', 'tool', 'agent']);
    expect(t.steps[2]).toMatchObject({
      reasoning: '**Finding the parser**\n\nI need to locate the date parsing code.',
      toolCalls: [
        { id: 'call_kq1', name: 'shell', arguments: { command: ['bash', '-lc', "rg -n 'def parse_date' src"], workdir: '/home/dev/app' } },
      ],
    });
    expect(t.steps[3]?.observations).toEqual([{ toolCallId: 'call_kq1', content: 'src/dates.py:12:def parse_date(s):\n', isError: false }]);
    expect(t.steps[4]?.toolCalls[0]).toMatchObject({ id: 'call_kq2', name: 'apply_patch' });
    expect(t.steps[7]?.observations[0]).toEqual({ toolCallId: 'call_kq3', content: '1 failed, 7 passed\n', isError: true });
    expect(t.usage).toEqual({ promptTokens: 15320, completionTokens: 812, costUsd: null });
    expect(t.metadata).toMatchObject({ cliVersion: '0.46.0', cwd: '/home/dev/app', gitBranch: 'main', gitCommit: '4f2c9e1' });
  });

  it('reads the older bare layout, and refuses a broken line or a rollout with no turns', async () => {
    const t = only(await collect(codexImporter, await fixtureInput(CODEX_LEGACY)));
    expect(t.steps.map((s) => [s.source, s.text])).toEqual([
      ['user', 'List the files.'],
      ['agent', ''],
      ['tool', ''],
      ['agent', 'README.md and src.'],
    ]);
    expect(t.steps[1]?.toolCalls).toEqual([{ id: 'call_a', name: 'shell', arguments: { command: ['ls'] } }]);
    expect(
      await collect(codexImporter, memoryInput('r.jsonl', '{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}\n{"timestamp":')),
    ).toEqual([{ ok: false, where: 'line 2', message: expect.stringMatching(/^invalid JSON at line 2, column \d+/) }]);
    expect(
      errors(
        await collect(
          codexImporter,
          memoryInput('r.jsonl', '{"timestamp":"2025-10-10T12:00:00Z","type":"session_meta","payload":{"id":"x"}}\n'),
        ),
      ),
    ).toEqual([
      {
        where: '/',
        message: 'no steps: this codex trajectory (task "x") records nothing the agent did and no final answer, so it is not imported',
      },
    ]);
  });
});

describe('Cline / Roo task histories', () => {
  it('links [tool for x] Result: texts to the XML calls, drops environment_details, keeps modelInfo and the completion', async () => {
    const input = await fixtureInput(CLINE);
    const t = await onlyNormalised(clineImporter, input);
    expect(t.policy).toEqual({ model: 'claude-sonnet-4-20250514', checkpoint: null, agent: 'cline' });
    expect(t.task.instruction).toBe('Fix the off-by-one in src/pager.ts so the last page is shown.');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent', 'tool', 'agent', 'tool', 'agent']);
    expect(t.steps[1]).toMatchObject({
      text: '',
      reasoning: 'I need to see the pager first.',
      toolCalls: [{ id: 'xml-1-0', name: 'read_file', arguments: { path: 'src/pager.ts' } }],
    });
    expect(t.steps[2]?.observations).toEqual([
      { toolCallId: 'xml-1-0', content: 'export const pages = (n: number, size: number) => Math.floor(n / size);', isError: false },
    ]);
    expect(t.steps[3]?.text).toBe('The division drops the partial last page.');
    expect(t.steps[6]?.observations[0]).toMatchObject({
      toolCallId: 'xml-5-0',
      content: 'Command executed.\nOutput:\nTests: 4 passed, 4 total',
    });
    expect(
      t.steps.some((s) => s.text.includes('environment_details') || s.observations.some((o) => o.content.includes('VSCode Visible Files'))),
    ).toBe(false);
    expect(t.submission).toBe('The pager now rounds up, so the last partial page is shown; its tests pass.');
    expect(t.usage).toEqual({ promptTokens: 16520, completionTokens: 184, costUsd: 0.0314 });
    expect(t.metadata).toEqual({ provider: 'anthropic', mode: 'act', xmlToolCalls: 4 });
  });

  it('reads native tool_use / tool_result blocks and names Roo Code by its storage path', async () => {
    const history = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nRename foo to bar\n</task>' }], ts: 1754630000000 },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'search_files', input: { regex: 'foo' } }],
        modelInfo: { modelId: 'gpt-5', providerId: 'openai', mode: 'act' },
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'src/a.ts:1: foo()' }] }] },
    ];
    const path =
      '/home/u/.vscode-server/data/User/globalStorage/rooveterinaryinc.roo-cline/tasks/1754630000000/api_conversation_history.json';
    const t = only(await collect(clineImporter, memoryInput(path, JSON.stringify(history))));
    expect(t.policy).toEqual({ model: 'gpt-5', checkpoint: null, agent: 'roo-code' });
    expect(t.externalId).toBe('1754630000000');
    expect(t.steps[2]?.observations).toEqual([{ toolCallId: 'toolu_1', content: 'src/a.ts:1: foo()', isError: false }]);
  });

  it('parses XML tool calls out of the text and reports a bad message where it is', async () => {
    expect(xmlToolCalls('Checking.\n<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>')).toEqual({
      text: 'Checking.',
      calls: [{ name: 'list_files', params: { path: 'src', recursive: 'true' } }],
      thinking: null,
    });
    expect(
      errors(
        await collect(
          clineImporter,
          memoryInput(
            'h.json',
            JSON.stringify([
              { role: 'user', content: '<task>x</task>' },
              { role: 'robot', content: 'x' },
            ]),
          ),
        ),
      ),
    ).toEqual([{ where: '/1/role', message: 'expected role "user" or "assistant", found "robot"' }]);
    expect(errors(await collect(clineImporter, memoryInput('h.json', '{"role": "user"}')))).toEqual([
      { where: '/', message: 'expected the array of messages of api_conversation_history.json, found an object' },
    ]);
  });
});
