import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startReceiver } from '../examples/receiver/receiver.mjs';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

test('an admin adds a webhook sink, the worker delivers the finalised labels to the example receiver, and a dead batch is retried from the page', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { seedLabelledProject } = await import('../lib/db/test/seed-labels');
  const { db } = await import('../lib/db/client');
  const seeded = await seedLabelledProject({ slug: uniqueName('sinks'), tasks: 3, evalTasks: 1 });
  const secret = 'e2e-sink-secret-0123456789';
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'witness-e2e-sink-')), 'received.jsonl');
  const receiver = await startReceiver({ secret, out });
  try {
    const admin = await seedUser('admin');
    await signIn(page, admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Training sinks' }).click();
    await expect(page.getByRole('heading', { name: 'Training sinks', level: 1 })).toBeVisible();

    const form = page.getByRole('form', { name: 'New training sink' });
    const name = uniqueName('trainer');
    await form.getByLabel('Name').fill(name);
    await form.locator('select[name=projectId]').selectOption({ label: seeded.slug });
    await form.locator('select[name=kind]').selectOption('webhook');
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel(/^Secret/).fill(secret);
    await form.locator('select[name=format]').selectOption('trl-dpo');
    await form.getByRole('button', { name: 'Add sink' }).click();

    const card = page.getByTestId(`sink-${name}`);
    await expect(card).toBeVisible();
    // the worker delivers (kicked by the create); the page shows the batch as delivered
    await expect(async () => {
      await page.reload();
      await expect(card.getByTestId('delivery-1')).toContainText('delivered');
      // the counts and the list are two reads: both must have seen the ack
      await expect(card).toContainText('6 rows delivered', { timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    await screenshot(page, 'sinks-delivered');
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { witness: { split: string }; chosen: unknown[] });
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.witness.split === 'train')).toBe(true);

    // a batch that exhausted its retries (made dead here so the test need not wait for 8 backoffs)
    const sink = await db().trainingSink.findFirstOrThrow({ where: { name }, select: { id: true } });
    await db().delivery.updateMany({
      where: { sinkId: sink.id, sequence: 1 },
      data: { status: 'dead', attempts: 8, lastError: 'attempt 8: POST answered HTTP 500: injected failure' },
    });
    await page.reload();
    await expect(card.getByTestId('delivery-1')).toContainText('dead');
    await expect(card).toContainText('this sink has stopped');
    await screenshot(page, 'sinks-dead');
    await card.getByTestId('delivery-1').getByRole('button', { name: 'Retry' }).click();
    await expect(async () => {
      await page.reload();
      await expect(card.getByTestId('delivery-1')).toContainText('delivered');
    }).toPass({ timeout: 60_000 });
    // the re-send carried the same key: the receiver kept one copy
    expect(receiver.stats.duplicates).toBe(1);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(6);
  } finally {
    await receiver.close();
  }
});
