import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { seedUser, type SeededUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';

const rubric = {
  title: 'Agreement e2e',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Acceptance criteria' },
    { id: 'quality', type: 'likert', prompt: 'Overall quality', points: 5 },
    {
      id: 'flags',
      type: 'multi',
      prompt: 'Flags',
      options: [
        { value: 'reward_hacking', label: 'Reward hacking' },
        { value: 'unsafe', label: 'Unsafe action' },
      ],
    },
    { id: 'notes', type: 'text', prompt: 'Notes', required: false },
  ],
};

/**
 * A campaign of 6 items reviewed by 3 reviewers through lib/db (the same code the review pages
 * run): they agree on most items and split on two, so the dashboard has coefficients with
 * intervals and the queue has work.
 */
async function seedCampaign(reviewers: SeededUser[]) {
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const { claimNextItem } = await import('../lib/review/claim-next-item');
  const { submitReview } = await import('../lib/review/submit-review');
  const { db } = await import('../lib/db/client');
  const slug = uniqueName('agree');
  const project = await ensureProject({ slug, name: slug });
  const good = new Map<string, boolean>();
  for (let i = 0; i < 6; i++) {
    const pass = i % 2 === 0;
    const id = await storeTrajectoryDirect(
      slug,
      buildTrajectory({
        format: 'openai',
        task: {
          name: `${slug}-task-${i}`,
          instruction: 'Fix the failing test',
          acceptanceCriteria: [{ key: 'tests_pass', text: 'The tests pass', origin: 'task', verdict: null }],
          environment: 'e2e',
        },
        policy: { model: 'model-x' },
        steps: [
          { source: 'user', text: 'Fix the failing test' },
          { source: 'agent', text: `step one of task ${i}` },
          { source: 'tool', text: 'ran the tests' },
        ],
        extra: {
          verifier: { reward: i === 5 ? 1 : pass ? 1 : 0, components: {} },
          judgeScores: [{ judge: 'judge-llm', score: pass ? 8 : 3, label: null, explanation: null }],
        },
      }),
    );
    good.set(id, pass);
  }
  const version = await saveRubricVersion(project.id, uniqueName('rubric'), rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: uniqueName('Agreement campaign'), mode: 'single', rubricVersionId: version.versionId, overlap: 3 },
    null,
  );
  const items = await db().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { trajectoryId: true } });
  const order = items.map((i) => i.trajectoryId).sort();
  const watched = { ranges: [[0, 90]] as [number, number][], speeds: [1], seeks: 0 };
  let when = Date.now() - 3 * 3600_000;
  for (const [r, reviewer] of reviewers.entries()) {
    for (;;) {
      const claim = await claimNextItem(campaign.id, { id: reviewer.id, expertise: [] }, new Date());
      if (!claim) break;
      const { trajectoryId } = await db().campaignItem.findUniqueOrThrow({
        where: { id: claim.campaignItemId },
        select: { trajectoryId: true },
      });
      const index = order.indexOf(trajectoryId);
      const pass = good.get(trajectoryId)!;
      // items 1 and 2 split: the third reviewer disagrees on the criterion and by 3 Likert points
      const dissent = r === 2 && (index === 1 || index === 2);
      const verdict = dissent ? (pass ? 'fail' : 'pass') : pass ? 'pass' : 'fail';
      const quality = dissent ? (pass ? 2 : 5) : pass ? 4 + (r % 2) : 1 + (r % 2);
      when += 60_000;
      await submitReview(
        reviewer.id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          answers: { criteria: { tests_pass: verdict }, quality, flags: dissent ? ['reward_hacking'] : [] },
          evidence: [{ frame: 30 + 10 * r, stepIndex: 1, note: `${reviewer.name} saw this at step one`, wrongStep: false }],
          coverage: watched,
          durationSec: 60 + 30 * r,
        },
        100,
        new Date(when),
      );
    }
  }
  return campaign;
}

test('a lead sees agreement with intervals, downloads a CSV, and settles a disagreement; a reviewer is refused', async ({ page }) => {
  test.setTimeout(180_000);
  const reviewers = [await seedUser('reviewer'), await seedUser('reviewer'), await seedUser('reviewer')];
  const lead = await seedUser('lead');
  const campaign = await seedCampaign(reviewers);

  await signIn(page, lead);
  await page.getByRole('link', { name: 'Agreement', exact: true }).click();
  await expect(page).toHaveURL(/\/lead\/agreement$/);
  await page.getByRole('link', { name: campaign.name }).click();
  await expect(page).toHaveURL(new RegExp(`/lead/campaigns/${campaign.id}/agreement`));

  // per question: alpha, its interval, its band, n items and raters
  const questions = page.getByTestId('question-table');
  const quality = questions.getByRole('row').filter({ hasText: 'Overall quality' });
  await expect(quality.getByRole('cell').nth(1)).toHaveText('ordinal');
  await expect(quality.getByRole('cell').nth(2)).toHaveText(/^-?\d\.\d{3}$/);
  await expect(quality.getByRole('cell').nth(3)).toHaveText(/^\[-?\d\.\d\d, -?\d\.\d\d\]$/);
  await expect(quality.getByRole('cell').nth(5)).toHaveText('6');
  await expect(quality.getByRole('cell').nth(6)).toHaveText('3');
  await expect(questions.getByRole('row').filter({ hasText: 'Flags: Reward hacking' })).toHaveCount(1);
  await expect(questions.getByRole('row').filter({ hasText: 'Notes' })).toHaveCount(0);
  await expect(page.getByTestId('coefficient-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('reviewer-table').getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('reviewer-matrix')).toBeVisible();
  await expect(page.getByTestId('audit-table').getByRole('row').filter({ hasText: 'Verifier reward' })).toBeVisible();
  await expect(page.getByTestId('audit-table').getByRole('row').filter({ hasText: 'judge-llm' })).toBeVisible();
  await screenshot(page, 'agreement-dashboard');

  // CSV of the per-question table
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#questions').locator('..').getByRole('link', { name: 'CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-questions\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('question,label,level,alpha,ci_low,ci_high,band,n_items,n_raters,n_ratings');
  expect(lines.find((l) => l.startsWith('quality,'))).toMatch(/^quality,Overall quality,ordinal,-?[\d.]+,-?[\d.]+,-?[\d.]+,\w+,6,3,18$/);

  // the disagreement queue: the two split items, then settle the first
  await page.getByRole('link', { name: /^Adjudication/ }).click();
  const rows = page.getByTestId('disagreement-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Open');
  await screenshot(page, 'agreement-queue');
  await rows.first().getByRole('link', { name: 'Adjudicate' }).click();
  await expect(page.getByTestId('answers-table')).toContainText(reviewers[2]!.name);
  const notes = page.getByTestId('evidence-notes').getByRole('button');
  await expect(notes).toHaveCount(3);
  const time = page.getByTestId('player-time');
  await notes.filter({ hasText: `${reviewers[2]!.name} saw this` }).click();
  await expect(time).toContainText('frame 50');
  await page.getByLabel('Rationale').fill('The tests fail on a clean checkout; the dissent is right about the hack.');
  await page.getByLabel('Final verdict: The tests pass').selectOption('fail');
  await page.getByRole('button', { name: 'Record final label' }).click();
  await expect(page.getByRole('status')).toContainText('revision 1');
  await expect(page.getByTestId('adjudicated-badge')).toBeVisible();
  await expect(page.getByTestId('adjudication-history')).toContainText('the dissent is right');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'agreement-adjudicate');

  await page.getByRole('link', { name: /Disagreements in/ }).click();
  await expect(rows.filter({ hasText: 'Adjudicated' })).toHaveCount(1);
  await expect(page.getByText('1 open · 1 adjudicated')).toBeVisible();

  // a reviewer gets 403 on these pages and routes
  await page.context().clearCookies();
  await signIn(page, reviewers[0]!);
  for (const path of ['/lead/agreement', `/lead/campaigns/${campaign.id}/agreement`, `/lead/campaigns/${campaign.id}/adjudication`]) {
    expect((await page.goto(path))?.status(), path).toBe(403);
  }
  expect((await page.request.get(`/api/v1/campaigns/${campaign.id}/agreement/questions`)).status()).toBe(403);
});

test('a pairwise campaign: agreement on the preference and per-side criteria; the lead settles a pair with both videos', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const { claimNextItem } = await import('../lib/review/claim-next-item');
  const { submitComparison } = await import('../lib/review/submit-comparison');
  const slug = uniqueName('pairs');
  const project = await ensureProject({ slug, name: slug });
  for (const task of ['alpha', 'beta', 'gamma']) {
    for (const model of ['model-a', 'model-b']) {
      await storeTrajectoryDirect(
        slug,
        buildTrajectory({
          format: 'openai',
          task: {
            name: `${slug}-${task}`,
            instruction: 'Make the build green',
            acceptanceCriteria: [{ key: 'green', text: 'The build is green', origin: 'task', verdict: null }],
            environment: 'e2e',
          },
          policy: { model },
          steps: [
            { source: 'user', text: 'Make the build green' },
            { source: 'agent', text: `${model} works on ${task}` },
          ],
          extra: { verifier: { reward: model === 'model-b' ? 1 : 0, components: {} } },
        }),
      );
    }
  }
  const version = await saveRubricVersion(
    project.id,
    uniqueName('rubric'),
    { title: 'pairs', questions: [{ id: 'notes', type: 'text', prompt: 'Notes', required: false }] },
    null,
  );
  const campaign = await createCampaign(
    project.id,
    { name: uniqueName('Pairwise campaign'), mode: 'pairwise', rubricVersionId: version.versionId, overlap: 2 },
    null,
  );
  const reviewers = [await seedUser('reviewer'), await seedUser('reviewer')];
  const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };
  for (const [r, reviewer] of reviewers.entries()) {
    for (let n = 0; ; n++) {
      const claim = await claimNextItem(campaign.id, { id: reviewer.id, expertise: [] }, new Date());
      if (!claim) break;
      // in A/B terms: both prefer B, the second reviewer strongly on the first item they get and the opposite on the second
      const wanted = r === 0 ? 1 : n === 1 ? -2 : 2;
      const ab = { a: 'fail', b: 'pass' } as const;
      await submitComparison(
        reviewer.id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          preference: claim.swapSides ? -wanted : wanted,
          rationale: `${reviewer.name}: B makes the build green`,
          criteria: claim.swapSides ? { left: { green: ab.b }, right: { green: ab.a } } : { left: { green: ab.a }, right: { green: ab.b } },
          evidence: [
            { frame: 20, stepIndex: 1, note: `${reviewer.name} pinned this`, side: claim.swapSides ? 'b' : 'a', wrongStep: false },
          ],
          coverage: { left: watched, right: watched },
        },
        { left: 100, right: 100 },
        new Date(),
      );
    }
  }

  const lead = await seedUser('lead');
  await signIn(page, lead);
  await page.goto(`/lead/campaigns/${campaign.id}/agreement`);
  const questions = page.getByTestId('question-table');
  await expect(questions.getByRole('row').filter({ hasText: 'Preference' }).getByRole('cell').nth(1)).toHaveText('ordinal');
  await expect(questions.getByRole('row').filter({ hasText: 'Acceptance criteria, per side' }).getByRole('cell').nth(2)).toHaveText(
    '1.000',
  );
  await expect(page.getByTestId('audit-table')).toContainText('Verifier reward (B − A)');
  await expect(page.getByTestId('coefficient-chart').locator('.recharts-errorBar').first()).toBeVisible();
  await screenshot(page, 'agreement-pairwise');

  await page.getByRole('link', { name: /^Adjudication/ }).click();
  const rows = page.getByTestId('disagreement-row');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link', { name: 'Adjudicate' }).click();
  await expect(page.getByRole('region', { name: 'Trajectory A' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Trajectory B' })).toBeVisible();
  await expect(page.getByTestId('answers-table').getByRole('row')).toHaveCount(3);
  await page.getByLabel('Final preference').selectOption('1');
  await page.getByLabel('Rationale').fill('B makes the build green; the strong A vote misread the log.');
  await page.getByRole('button', { name: 'Record final label' }).click();
  await expect(page.getByRole('status')).toContainText('revision 1');
  await expect(page.getByTestId('adjudication-history')).toContainText('Preference: B better');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'agreement-pairwise-adjudicate');
});
