import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { apiTokenFor, uniqueName } from './fixtures/trajectories';

test('a coding-agent session sent as NDJSON imports as one trajectory, and an empty one is refused with where and what', async ({
  page,
  request,
}) => {
  const lead = await seedUser('lead');
  const token = await apiTokenFor(lead.id);
  const project = uniqueName('e2e-formats');
  const post = (body: string) =>
    request.post(`/api/v1/trajectories?project=${project}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      data: body,
    });

  // a Claude Code session is JSONL by nature: one trajectory, not one per line
  const session = await readFile('lib/formats/fixtures/coding-agents/claude-code-session.jsonl', 'utf8');
  const answer = await post(session);
  expect(answer.status()).toBe(200);
  const report = await answer.json();
  expect(report).toMatchObject({ imported: 1, failed: 0 });
  expect(report.trajectories[0]).toMatchObject({ format: 'claude-code', steps: 15, policy: 'claude-opus-4-6 / claude-code' });

  // an NDJSON batch of tau2 simulations: one per line, and the one with no messages refused
  const sim = JSON.parse(await readFile('lib/formats/fixtures/tau2/simulation.json', 'utf8')) as Record<string, unknown>;
  const batch = [JSON.stringify({ ...sim, id: uniqueName('sim') }), JSON.stringify({ ...sim, id: uniqueName('sim'), messages: [] })].join(
    '\n',
  );
  const second = await (await post(batch)).json();
  expect(second).toMatchObject({ imported: 1, failed: 1 });
  expect(second.errors).toEqual([
    { path: 'line 2', where: '/messages', message: 'no steps: this simulation has no messages, so there is nothing to import' },
  ]);

  await signIn(page, lead);
  await page.goto(`/trajectories/${report.trajectories[0].id}`);
  await expect(page.getByTestId('step')).toHaveCount(15);
  await expect(page.getByTestId('step').nth(7)).toContainText('[sub-agent] The tests are in tests/test_export.py.');
  await screenshot(page, 'claude-code-session');
});

test('the API imports an Inspect .eval zip sent as bytes, refuses a zip bomb and 1e999 with where and what (issue 14, items 9, 10, 12c)', async ({
  request,
}) => {
  const { bombEntry, deflatedEntry, writeZip } = await import('../lib/formats/zip-testing');
  const lead = await seedUser('lead');
  const token = await apiTokenFor(lead.id);
  const project = uniqueName('e2e-eval');
  const post = (body: Uint8Array | string, contentType: string) =>
    request.post(`/api/v1/trajectories?project=${project}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      data: typeof body === 'string' ? body : Buffer.from(body),
    });
  const log = JSON.parse(await readFile('lib/formats/fixtures/inspect/log.json', 'utf8')) as { samples: { id: string; epoch: number }[] };
  const { samples, ...header } = log;
  const sample = { ...samples[0]!, id: uniqueName('sample') };
  const entries = [
    deflatedEntry('header.json', JSON.stringify(header)),
    deflatedEntry(`samples/${sample.id}_epoch_1.json`, JSON.stringify(sample)),
  ];

  const ok = await post(writeZip(entries), 'application/octet-stream');
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ imported: 1, failed: 0, trajectories: [{ format: 'inspect', task: sample.id }] });

  // ~0.3 MB that inflates to 300 MiB: refused unread, the rest of the archive still imported (here: skipped, already there)
  const bomb = await post(writeZip([...entries, bombEntry('samples/bomb_epoch_1.json', 300)]), 'application/zip');
  expect(bomb.status()).toBe(200);
  expect(await bomb.json()).toMatchObject({
    imported: 0,
    skipped: 1,
    errors: [
      {
        path: 'body',
        where: 'zip entry samples/bomb_epoch_1.json',
        message: 'inflates to 300.0 MiB, over the limit of 128.0 MiB for one entry: refused unread',
      },
    ],
  });

  const atif = await readFile('lib/formats/fixtures/atif/basic.json', 'utf8');
  const overflow = await post(atif.replace(/"prompt_tokens": 1600/, '"prompt_tokens": 1e999'), 'application/json');
  expect(overflow.status()).toBe(422);
  expect((await overflow.json()).errors).toEqual([
    {
      path: 'body',
      where: 'line 35',
      message: '/steps/3/metrics/prompt_tokens: 1e999 is not a finite number (out of range for a 64-bit float)',
    },
  ]);
});
