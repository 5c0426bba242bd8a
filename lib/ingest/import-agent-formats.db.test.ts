import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase } from '../db/test/reset';
import { deflatedEntry, writeZip } from '../formats/zip-testing';
import { ensureProject } from '../trajectories/queries/projects';
import { bodyImport } from './body-inputs';
import { importTrajectories } from './import-trajectories';

/*
 * Issue 44 through the API's path (POST /api/v1/trajectories: the body's bytes -> bodyImport ->
 * importTrajectories): each coding agent's file imports completely, with the step count its
 * importer reads, and a file no importer reads gets one refusal. Fixtures: lib/formats/fixtures
 * (their sources are cited in lib/formats/{openhands,aider,cline-task,claude-code-hooks}.test.ts).
 */
const fixtures = path.join(import.meta.dirname, '..', 'formats', 'fixtures');
const limits = { maxFileBytes: 1 << 20, maxTotalBytes: 8 << 20 };

async function post(projectId: string, body: Uint8Array, contentType: string) {
  const { inputs, dispose } = await bodyImport(body, contentType, 'auto', limits);
  try {
    return await importTrajectories(inputs, { projectId, format: 'auto', importedById: null });
  } finally {
    await dispose();
  }
}

const file = (rel: string) => new Uint8Array(readFileSync(path.join(fixtures, rel)));

describe('coding-agent files posted to the import route (issue 44)', () => {
  beforeEach(resetDatabase);

  it('imports OpenHands, aider and Claude Code (hooks) bodies completely, with their step counts', async () => {
    const project = await ensureProject({ slug: 'agents-api', name: 'agents-api' });
    const cases: [string, string, [string, number][]][] = [
      ['openhands/trajectory-7f3a.json', 'application/json', [['openhands', 14]]],
      [
        'aider/.aider.chat.history.md',
        'text/markdown',
        [
          ['aider', 11],
          ['aider', 2],
        ],
      ],
      ['coding-agents/claude-code-hooks.jsonl', 'application/x-ndjson', [['claude-code', 9]]],
    ];
    for (const [rel, type, expected] of cases) {
      const report = await post(project.id, file(rel), type);
      expect({ rel, errors: report.errors, steps: report.trajectories.map((t) => [t.format, t.steps]) }).toEqual({
        rel,
        errors: [],
        steps: expected,
      });
    }
  });

  it('imports a zipped Cline task folder as one task, its companions never failures', async () => {
    const project = await ensureProject({ slug: 'cline-api', name: 'cline-api' });
    const task = path.join(fixtures, 'cline-task', '1764412345678');
    const zip = writeZip(
      readdirSync(task).map((name) => deflatedEntry(`tasks/1764412345678/${name}`, readFileSync(path.join(task, name)))),
    );
    const report = await post(project.id, zip, 'application/zip');
    expect(report.errors).toEqual([]);
    expect(report.trajectories.map((t) => [t.format, t.steps])).toEqual([['cline', 6]]);
  });

  it('refuses a JSON list no importer reads once, not once per element', async () => {
    const project = await ensureProject({ slug: 'unknown-api', name: 'unknown-api' });
    const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    // no detector claims it: the closest format and why
    const narrator = await post(project.id, json([1, 2, 3].map((line) => ({ role: 'narrator', line }))), 'application/json');
    expect(narrator.errors).toEqual([
      {
        path: 'body',
        where: 'file',
        message:
          'format not recognised (closest: OpenAI chat, because it has chat keys ("role", "messages" or "content") but no message list); pass --format to force one',
      },
    ]);
    // the chat detector claims it (a chat role inside), but no element is a message or a conversation
    const records = await post(project.id, json([1, 2, 3].map((n) => ({ event: n, payload: { role: 'user' } }))), 'application/json');
    expect(records.errors).toEqual([
      {
        path: 'body',
        where: '/',
        message: expect.stringMatching(
          /^format not recognised \(closest: OpenAI chat, because .* 3 elements are objects with keys event, payload/,
        ),
      },
    ]);
  });
});
