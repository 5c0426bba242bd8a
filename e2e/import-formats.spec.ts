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
