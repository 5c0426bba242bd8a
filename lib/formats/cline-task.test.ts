import { describe, expect, it } from 'vitest';
import { collect, fixtureInput, fixtureProbe, onlyNormalised } from './chat-testing';
import { clineImporter, enrichFromCompanions, looksLikeClineTaskDir } from './cline';
import { detectFormat } from './detect';
import { buildTrajectory } from './build-trajectory';

/*
 * Fixture written for these tests: a Cline task folder as cline/cline writes it
 * (apps/vscode/src/core/storage/disk.ts GlobalFileNames: api_conversation_history.json, ui_messages.json,
 * task_metadata.json, context_history.json; the focus chain focus_chain_taskid_<id>.md of
 * core/task/focus-chain/file-utils.ts). ui_messages.json holds ClineMessage records with
 * `say: "api_req_started"` ClineApiReqInfo texts (shared/ExtensionMessage.ts); task_metadata.json the
 * TaskMetadata of core/context/context-tracking/ContextTrackerTypes.ts.
 */
const TASK = 'cline-task/1764412345678';

describe('Cline / Roo Code task folders', () => {
  it('are one input: the folder is claimed, a folder of tasks is not', async () => {
    expect(detectFormat(await fixtureProbe(TASK))).toBe('cline');
    expect(looksLikeClineTaskDir(['1/api_conversation_history.json', '2/api_conversation_history.json'])).toBe(false);
  });

  it('import the conversation enriched by its companions, none counted as a failure', async () => {
    const items = await collect(clineImporter, await fixtureInput(TASK));
    expect(items.filter((i) => !i.ok)).toEqual([]);
    const t = await onlyNormalised(clineImporter, await fixtureInput(TASK));
    expect(t.externalId).toBe('1764412345678');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent', 'tool', 'agent']);
    expect(t.submission).toBe('pages() now rounds up, so the last partial page is shown.');
    // timestamps from ui_messages.json (its last message is after the history's)
    expect(t.startedAt).toBe('2025-11-29T10:32:25.678Z');
    expect(t.endedAt).toBe('2025-11-29T10:32:38.178Z');
    expect(t.usage).toEqual({ promptTokens: 28100, completionTokens: 210, costUsd: 0.0385 });
    expect(t.metadata).toMatchObject({
      apiRequests: 3,
      uiMessages: 10,
      filesEdited: ['src/pager.ts'],
      filesRead: ['src/pager.ts'],
      filesMentioned: ['src/app.ts'],
      clineVersion: '3.38.2',
      focusChain: [
        { done: true, text: 'Read src/pager.ts' },
        { done: true, text: 'Round the page count up' },
        { done: false, text: 'Add a test for 0 items' },
      ],
    });
  });

  it('take cost from ui_messages.json and the model from task_metadata.json when the history has none', () => {
    const bare = buildTrajectory({ format: 'cline', task: { name: 't' }, steps: [{ source: 'user', text: 'x' }] });
    const ui = [
      { ts: 1764412345678, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 10, tokensOut: 5, cost: 0.25 }) },
      { ts: 1764412349678, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 20, tokensOut: 5, cost: 0.5 }) },
    ];
    const tm = { files_in_context: [], model_usage: [{ ts: 1, model_id: 'qwen3-coder', model_provider_id: 'openrouter', mode: 'act' }] };
    const t = enrichFromCompanions(bare, { uiMessages: ui, taskMetadata: tm, focusChain: null });
    expect(t.usage).toEqual({ promptTokens: 30, completionTokens: 10, costUsd: 0.75 });
    expect(t.policy.model).toBe('qwen3-coder');
    expect(t.metadata).toMatchObject({ provider: 'openrouter' });
    expect(t.startedAt).toBe('2025-11-29T10:32:25.678Z');
  });
});
