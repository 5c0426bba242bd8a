import { expect, test, type Browser, type Page } from '@playwright/test';
import { routeTable, type RouteRow } from '../app/_server/route-table';
import { demoUsers } from '../prisma/seed/demo-users';
import './fixtures/seed';
import { claimFor } from './fixtures/membership';
import { signIn } from './fixtures/sign-in';

/**
 * The console sweep: every page of the route table (app/_server/route-table.ts), opened in the
 * browser at 1440×900 on the demo data as the demo user its area is for (admin pages as the demo
 * admin, lead pages as the demo lead, review pages as the demo reviewer and the demo lead, public
 * pages signed out), fails on any console error (a hydration mismatch is one: React #418), any
 * uncaught page error, and any request that fails or answers 4xx/5xx (the favicon included).
 * A row whose path has a placeholder this spec cannot fill fails by name, so a new page gets
 * its fixture here when it is added to the table.
 */
const VIEWPORT = { width: 1440, height: 900 };
/** pages whose screenshots the fixes are checked on (test-results/screens/console-*.png) */
const SHOT = /agreement|adjudication|\/lead\/campaigns\/(new|[^/?]+$)|insight\/policies|insight\/environments|trajectories\?/;

const login = (email: string) => {
  const u = demoUsers.find((d) => d.email === email)!;
  return { email: u.email, password: u.password };
};

interface Fixture {
  project: string;
  campaign: string;
  pairCampaign: string;
  item: string;
  trajectory: string;
  /** the caller's own claims, per demo user */
  assignment: Record<string, string>;
  pairAssignment: Record<string, string>;
}
let F: Fixture;
/** what the demo seed has none of, made here in the demo project: a finished training run (`:run`) and its export (`:export`) */
let extra: Record<string, string>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const { seedDemo } = await import('../prisma/seed/seed-demo');
  const seeded = await seedDemo();
  // as membership-demo.spec.ts: in a full run other specs have given the demo's people other projects; give them theirs
  const { db } = await import('../lib/db/client');
  const projectIds = { demo: seeded.projectId, 'support-desk': seeded.supportProjectId };
  const ids: Record<string, string> = {};
  for (const u of demoUsers) {
    const user = await db().user.findUniqueOrThrow({ where: { email: u.email }, select: { id: true } });
    ids[u.email] = user.id;
    const data = Object.entries(u.projects).map(([slug, role]) => ({
      projectId: projectIds[slug as keyof typeof projectIds],
      userId: user.id,
      role: role!,
    }));
    if (data.length) await db().projectMember.createMany({ data, skipDuplicates: true });
  }
  const campaigns = await db().campaign.findMany({
    where: { projectId: seeded.projectId },
    select: { id: true, mode: true, name: true, _count: { select: { items: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const single = campaigns.filter((c) => c.mode === 'single');
  const pair = campaigns.find((c) => c.mode === 'pairwise');
  if (!single.length || !pair)
    throw new Error(`the demo seed has no single or no pairwise campaign: ${campaigns.map((c) => c.name).join(', ')}`);
  // the single campaign with the most reviewed items, and one of its reviewed items (the adjudication page)
  const reviewed = await db().campaignItem.findMany({
    where: { campaignId: { in: single.map((c) => c.id) }, reviewCount: { gt: 1 } },
    select: { id: true, campaignId: true, trajectoryId: true },
  });
  const byCampaign = new Map<string, typeof reviewed>();
  for (const r of reviewed) byCampaign.set(r.campaignId, [...(byCampaign.get(r.campaignId) ?? []), r]);
  const [campaignId, items] = [...byCampaign.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
  const claims = async (userId: string, mode: 'single' | 'pairwise') => {
    for (const c of mode === 'single' ? single : [pair]) {
      try {
        return await claimFor(c.id, userId);
      } catch {
        // nothing to claim there for this user (expertise, done): the next campaign
      }
    }
    throw new Error(`no ${mode} demo campaign has an item to claim for ${userId}`);
  };
  const base = await db().policy.findFirstOrThrow({ where: { projectId: seeded.projectId }, orderBy: { name: 'asc' } });
  const exported = await db().export.create({
    data: {
      projectId: seeded.projectId,
      format: 'trl-dpo',
      params: { split: 'train' },
      status: 'done',
      progress: 1,
      rows: 1,
      sha256: 'a'.repeat(64),
      finishedAt: new Date(),
    },
  });
  const run = await db().trainingRun.create({
    data: {
      projectId: seeded.projectId,
      recipe: 'trl-dpo',
      basePolicy: base.name,
      basePolicyId: base.id,
      exportId: exported.id,
      datasetSha256: 'a'.repeat(64),
      datasetRows: 1,
      status: 'succeeded',
      attempts: 1,
      checkpointName: `${base.name}+console`,
      checkpointUri: '/checkpoints/console',
      finishedAt: new Date(),
    },
  });
  extra = { run: run.id, export: exported.id };
  const people = ['lead@witness.local', 'reviewer@witness.local'];
  F = {
    project: 'demo',
    campaign: campaignId,
    pairCampaign: pair.id,
    item: items[0]!.id,
    trajectory: items[0]!.trajectoryId,
    assignment: Object.fromEntries(await Promise.all(people.map(async (e) => [e, await claims(ids[e]!, 'single')]))),
    pairAssignment: Object.fromEntries(await Promise.all(people.map(async (e) => [e, await claims(ids[e]!, 'pairwise')]))),
  };
});

function fill(path: string, email: string): string {
  const out = path
    .replaceAll(':project', F.project)
    .replaceAll(':pairCampaign', F.pairCampaign)
    .replaceAll(':campaign', F.campaign)
    .replaceAll(':item', F.item)
    .replaceAll(':trajectory', F.trajectory)
    .replaceAll(':pairAssignment', F.pairAssignment[email] ?? '')
    .replaceAll(':assignment', F.assignment[email] ?? '')
    .replaceAll(':token', 'not-a-real-invitation-token')
    // what the demo seed has none of (a training run, an export), made in beforeAll
    .replace(/:([a-zA-Z]+)/g, (whole, name: string) => extra[name] ?? whole);
  const left = out.match(/:[a-zA-Z]+/);
  if (left) throw new Error(`${path}: the console sweep has no fixture for ${left[0]} (add one in e2e/console-errors.spec.ts)`);
  return out;
}

/** Who opens a row: null is signed out. */
function openersOf(row: RouteRow): (string | null)[] {
  if (row.area === 'public') return [null];
  if (row.area === 'admin') return ['admin@witness.local'];
  if (row.area === 'review') return ['reviewer@witness.local', 'lead@witness.local'];
  return ['lead@witness.local'];
}

/** Opens a page and returns what went wrong: console errors, page errors, failed requests and 4xx/5xx answers. */
async function sweep(page: Page, url: string, row: RouteRow): Promise<string[]> {
  const problems: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text().slice(0, 300)}`);
  };
  const onPageError = (e: Error) => problems.push(`page error: ${e.message.slice(0, 300)}`);
  const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) => {
    const why = r.failure()?.errorText ?? '';
    // a request the page itself abandoned (a navigation or refresh replacing it) is not a failure
    if (why === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${r.url()} (${why})`);
  };
  const onResponse = (r: { url(): string; status(): number; request(): { isNavigationRequest(): boolean; frame(): unknown } }) => {
    const status = r.status();
    // the page's own document: its status is the row's (a public page may answer 404 to a bogus token)
    if (r.request().isNavigationRequest() && r.url().endsWith(url) && (row.ok.includes(status) || (row.area === 'public' && status < 500)))
      return;
    if (status >= 400) problems.push(`${status} ${r.url()}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('requestfailed', onFailed);
  page.on('response', onResponse);
  try {
    const response = await page.goto(url, { waitUntil: 'load' });
    const status = response?.status() ?? 0;
    if (!row.ok.includes(status) && !(row.area === 'public' && status < 500)) problems.push(`the page answered ${status}`);
    // hydration and the first effects run after load; polling pages never go idle, so this waits a bounded time
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
    await page.waitForTimeout(500);
    if (SHOT.test(url)) {
      const name = url
        .replace(/[?=&]/g, '-')
        .replace(/[^a-zA-Z0-9-]+/g, '_')
        .slice(0, 80);
      await page.screenshot({ path: `test-results/screens/console${name}.png` });
    }
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
  }
  return problems;
}

async function contextFor(browser: Browser, email: string | null) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  if (email) await signIn(page, login(email));
  return { context, page };
}

test('no page of the route table logs a console error or fails a request, as the demo user it is for', async ({ browser }) => {
  test.setTimeout(600_000);
  const rows = routeTable.filter((r) => r.file.endsWith('page.tsx') && r.method === 'GET');
  expect(rows.length).toBeGreaterThan(10);
  const byOpener = new Map<string | null, RouteRow[]>();
  for (const row of rows) for (const who of openersOf(row)) byOpener.set(who, [...(byOpener.get(who) ?? []), row]);
  const failures: string[] = [];
  let visited = 0;
  for (const [who, list] of byOpener) {
    const { context, page } = await contextFor(browser, who);
    for (const row of list) {
      const url = fill(row.path, who ?? '');
      const problems = await sweep(page, url, row);
      visited++;
      for (const p of problems) failures.push(`${who ?? 'signed out'} ${url}: ${p}`);
    }
    await context.close();
  }
  expect(visited).toBeGreaterThanOrEqual(rows.length);
  expect(failures).toEqual([]);
});

test('the demo campaigns: every campaign page, its agreement and adjudication pages, are clean for the demo lead', async ({ browser }) => {
  test.setTimeout(300_000);
  const { db } = await import('../lib/db/client');
  const campaigns = await db().campaign.findMany({ where: { project: { slug: 'demo' } }, select: { id: true } });
  const { context, page } = await contextFor(browser, 'lead@witness.local');
  const failures: string[] = [];
  const row = routeTable.find((r) => r.path === '/lead/campaigns/:campaign/agreement')!;
  for (const c of campaigns)
    for (const url of [`/lead/campaigns/${c.id}`, `/lead/campaigns/${c.id}/agreement`, `/lead/campaigns/${c.id}/adjudication`])
      for (const p of await sweep(page, url, row)) failures.push(`${url}: ${p}`);
  await context.close();
  expect(failures).toEqual([]);
});

// ------------------------------------------------------------------ the leads' pages say one thing (issue: "Leads' pages say one thing")

test('the audit lists only disagreements, and the review plan agrees with itself and shows no source path', async ({ browser }) => {
  const { context, page } = await contextFor(browser, 'lead@witness.local');
  const { db } = await import('../lib/db/client');
  const single = await db().campaign.findMany({ where: { project: { slug: 'demo' }, mode: 'single' }, select: { id: true, name: true } });

  // every listed row disagrees: a different verdict (neither side split), or scores more than 0.25 apart
  await page.goto(`/lead/campaigns/${F.campaign}/agreement`);
  await expect(page.getByTestId('snapshot-status')).toHaveAttribute('data-state', /current|stale/, { timeout: 60_000 });
  const rows = await page.locator('[data-testid="audit-worst"] li').allInnerTexts();
  for (const text of rows) {
    const m = text.match(/humans (pass|fail|split)[^,]*, score ([\d.]+) · (?:verifier|judge) (pass|fail|—), score ([\d.—]+)/);
    expect(m, text).not.toBeNull();
    const [, human, hs, source, ss] = m!;
    const differ = human !== 'split' && source !== '—' && human !== source;
    const apart = ss !== '—' && Math.abs(Number(hs) - Number(ss)) > 0.25;
    expect(differ || apart, `listed as a disagreement but agrees: ${text}`).toBe(true);
  }
  await page.locator('#audit').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/console-audit-list.png', fullPage: false });

  // the plan: one count of reviewed items, round targets, "everything" never behind a random sample, no source paths
  let plans = 0;
  for (const c of single) {
    await page.goto(`/lead/campaigns/${c.id}`);
    const plan = page.getByTestId('review-plan');
    if (!(await plan.count())) continue;
    plans++;
    await expect(page.locator('main')).not.toContainText('lib/');
    const header = await plan.locator('th').filter({ hasText: 'To reach' }).innerText();
    const target = Number(header.match(/±(\d+(?:\.\d+)?) pts/i)![1]);
    expect(target % 5, header).toBe(0);
    await expect(plan.getByTestId('reach-everything')).toHaveText(await plan.getByTestId('reach-random').innerText());
    const status = page.getByTestId('plan-status');
    if ((await status.count()) && (await status.getAttribute('data-state')) !== 'computing') {
      const asOf = Number((await status.innerText()).match(/As of ([\d,]+)/)![1]!.replace(/,/g, ''));
      const text = await plan.innerText();
      const reviewed = text.match(/the (\d+) reviewed alone|from (\d+) reviewed|From the (\d+) items reviewed/);
      if (reviewed) expect(Number(reviewed[1] ?? reviewed[2] ?? reviewed[3])).toBe(asOf);
    }
    await plan.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/console-plan-${plans}.png`, fullPage: false });
  }
  expect(plans).toBeGreaterThan(0);
  await context.close();
});

test('policies: one checkpoint is one row, empty trends say so, labels do not overlap; the training ranking fits at 1440 px', async ({
  browser,
}) => {
  const { context, page } = await contextFor(browser, 'lead@witness.local');
  await page.goto('/insight/policies?project=demo');
  const names = await page.getByTestId('policy-row').locator('td:nth-child(2) span:first-child').allInnerTexts();
  const keyOf = (name: string) => {
    const [head, tail] = name.split(' / ')[0]!.split('@');
    const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return tail ? `${norm(head!)}@${norm(tail)}` : name;
  };
  expect(new Set(names.map(keyOf)).size, names.join(' | ')).toBe(names.length);
  await expect(page.getByTestId('policy-row').filter({ hasText: 'acme-coder-7b@ckpt-2000' }).getByTestId('policy-aliases')).toContainText(
    'acme/coder-7b@ckpt-2000',
  );
  // each trend card draws lines or says there is nothing to draw; no chart without a line
  for (const card of await page.locator('section').filter({ hasText: 'Across checkpoints' }).all()) {
    const charts = card.getByTestId('trend');
    if (await charts.count()) expect(await charts.locator('.recharts-line').count()).toBeGreaterThan(0);
    else await expect(card.getByTestId('trend-empty')).toBeVisible();
  }
  // x labels of the bar charts do not overlap one another: level ones do not touch; slanted ones (-30°) are parallel lines at
  // least a line apart (their anchors >= 14 px apart, 11 px type)
  for (const chart of await page.locator('[data-testid="bt-chart"], [data-testid="score-chart"]').all()) {
    // the chart draws once its container is measured; recharts 3 draws tick labels in a layer of their own: the x ones
    // are the non-numeric labels (the y axis's are numbers and percentages)
    const labels = chart.locator('text.recharts-cartesian-axis-tick-value');
    await expect(labels.first()).toBeVisible();
    const ticks = (
      (await labels.evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return {
            text: e.textContent ?? '',
            x: Number(e.getAttribute('x')),
            slanted: /rotate/.test(e.getAttribute('transform') ?? ''),
            left: r.left,
            right: r.right,
          };
        }),
      )) as { text: string; x: number; slanted: boolean; left: number; right: number }[]
    ).filter((t) => !/^[\d.,%\s−-]+$/.test(t.text));
    expect(ticks.length).toBeGreaterThan(0);
    for (let i = 1; i < ticks.length; i++) {
      const [a, b] = [ticks[i - 1]!, ticks[i]!];
      if (a.slanted) expect(b.x - a.x, `slanted x labels ${i - 1} and ${i}`).toBeGreaterThanOrEqual(14);
      else expect(b.left - a.right, `x labels ${i - 1} and ${i} overlap`).toBeGreaterThanOrEqual(0);
    }
  }
  await page.screenshot({ path: 'test-results/screens/console-policies-1440.png', fullPage: true });

  // ?environment= by name: the filter applies (the page says which), an unknown one is named
  await page.goto('/insight/policies?project=demo&environment=physics-derivations');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main')).toContainText('on physics-derivations');
  await page.goto('/trajectories?project=demo&environment=physics-derivations');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await page.goto('/trajectories?project=demo&environment=no-such-env');
  await expect(page.locator('main')).toContainText('No environment named no-such-env');

  // the training ranking: nothing past the card's right edge at 1440 px
  await page.goto('/insight/environments?project=demo');
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Ranked for training' }) });
  const fits = await card.evaluate((el) => {
    const table = el.querySelector('table')!;
    const wrap = table.parentElement!;
    return {
      table: table.getBoundingClientRect().right,
      card: el.getBoundingClientRect().right,
      scrolls: wrap.scrollWidth > wrap.clientWidth,
    };
  });
  // it fits: no horizontal scrolling, the table's right edge inside the card (its figures stack rather than run off the right)
  expect(fits.scrolls, JSON.stringify(fits)).toBe(false);
  expect(fits.table, JSON.stringify(fits)).toBeLessThanOrEqual(fits.card + 1);
  await card.screenshot({ path: 'test-results/screens/console-training-ranking.png' });
  await context.close();
});

test('the adjudication form stays in its card; a physics campaign is offered the physics rubric', async ({ browser }) => {
  const { context, page } = await contextFor(browser, 'lead@witness.local');
  await page.goto(`/lead/campaigns/${F.campaign}/adjudication/${F.item}`);
  const form = page.locator('form').filter({ has: page.getByRole('textbox', { name: /Rationale/ }) });
  await expect(form).toBeVisible();
  const formBox = (await form.boundingBox())!;
  for (const select of await form.locator('select').all()) {
    const box = (await select.boundingBox())!;
    expect(box.x + box.width, (await select.getAttribute('aria-label')) ?? 'a select').toBeLessThanOrEqual(formBox.x + formBox.width + 1);
  }
  await page.screenshot({ path: 'test-results/screens/console-adjudication-form.png', fullPage: true });

  await page.goto('/lead/campaigns/new?project=demo&environment=physics-derivations');
  await page.getByTestId('rubric-suggestion').click();
  await expect(page.getByRole('textbox', { name: 'Rubric name' })).toHaveValue('Physics derivation review');
  await expect(page.locator('main')).toContainText('algebra');
  await page.getByTestId('rubric-suggestion').waitFor({ state: 'detached' });
  await page.screenshot({ path: 'test-results/screens/console-new-campaign-physics.png', fullPage: false });
  await context.close();
});

test('the skip dialog: Shift+Enter is a new line, Enter skips', async ({ browser }) => {
  const { context, page } = await contextFor(browser, 'reviewer@witness.local');
  await page.goto(`/review/items/${F.assignment['reviewer@witness.local']}`);
  await expect(page.getByTestId('trajectory-player')).toBeVisible();
  await page.keyboard.press('s');
  const why = page.getByRole('textbox', { name: 'Why?' });
  await why.pressSequentially('Outside');
  await why.press('Shift+Enter');
  await why.pressSequentially('my expertise');
  await expect(why).toHaveValue('Outside\nmy expertise');
  await page.screenshot({ path: 'test-results/screens/console-skip-dialog.png', fullPage: false });
  await why.press('Enter');
  await expect(page).not.toHaveURL(new RegExp(F.assignment['reviewer@witness.local']!));
  await context.close();
});
