/**
 * The closed loop, end to end on a CPU (step 6 of `npm run test:trainers`, scripts/trainers/run.ts),
 * against the real studio run.ts started (`witness start`, the demo seed, a worker):
 *
 * 1. the tiny model (scripts/trainers/tiny_model.py) saved to a folder: the base model's URI;
 * 2. `witness train start --project demo --format trl-dpo --base acme-coder-7b@ckpt-2000 --base-uri <tiny> --json`
 *    (the CLI, a second command on the studio's data dir): the demo's train-split DPO labels,
 *    frozen; the base is the demo sweep's best checkpoint, which has trajectories on the eval tasks;
 * 3. the real `witness-trainer --once` (pip-installed from clients/python into the venv) with a
 *    token of scope training for the demo lead, running examples/train_dpo.py (TRL DPO, 3 steps)
 *    and examples/eval_generate.py (transformers `generate` with the *trained* checkpoint, one
 *    ATIF file per eval task); it exits 0;
 * 4. `witness train show ID --json`: succeeded, a checkpoint, a loss series of ≥ 3 points;
 * 5. the eval trajectories imported under the checkpoint's policy, split eval (GET /api/v1/trajectories);
 * 6. the canary campaign opened (the worker's `training.canary` job), checkpoint vs base, blind pairwise;
 * 7. the demo reviewers vote through the API (claim: POST /api/v1/campaigns/ID/assignments;
 *    submit: POST /api/v1/assignments/ID/comparisons) with their own tokens, until nothing is left;
 * 8. Chromium (Playwright) signs in as the demo lead and screenshots /training/hill-climb?project=demo
 *    at 1440×900 into the temp folder (hill-climb.png, kept with --keep): the page shows a win rate
 *    with its interval.
 *
 * Each step is one result line; a failed step ends the loop (the later ones need it).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { installPythonClient, root, runCommand } from './venv';

export interface LoopStudio {
  url: string;
  /** the environment `witness start` runs with: a CLI command with it uses the studio's database */
  env: NodeJS.ProcessEnv;
}

export interface LoopContext {
  python: string;
  studio: LoopStudio;
  /** the run's temp folder */
  dir: string;
  record: (name: string, status: 'passed' | 'failed' | 'skipped', t0: number, detail?: string) => void;
}

const PROJECT = 'demo';
/** the demo sweep's best checkpoint (prisma/seed/demo-sweep.ts): trajectories on both eval tasks of the sweep */
const BASE_POLICY = 'acme-coder-7b@ckpt-2000';
const LEAD = 'lead@witness.local';
const LEAD_PASSWORD = 'witness-demo-lead';
/** demo reviewers of the terminal-and-physics team (prisma/seed/demo-users.ts) */
const REVIEWERS = ['reviewer@witness.local', 'sol@witness.local', 'kit@witness.local', 'physicist@witness.local'];
const STEPS = 3;

class StepFailure extends Error {}

const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

interface RunView {
  id: string;
  status: string;
  attempts: number;
  rows: number;
  failureReason: string | null;
  evalError: string | null;
  checkpoint: { name: string; uri: string; policyId: string } | null;
  metrics: { step: number; name: string; value: number }[];
  canaryCampaign: { id: string } | null;
  logTail: string[];
}

/** `witness …` as a second command on the studio's data dir; its last stdout line parsed as JSON. */
async function witnessJson<T>(ctx: LoopContext, args: string[]): Promise<T> {
  const r = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), ...args], {
    quiet: true,
    env: ctx.studio.env,
  });
  const last = r.output.trim().split('\n').pop() ?? '';
  if (r.code !== 0) throw new StepFailure(`witness ${args.join(' ')}: exit ${r.code}\n${tail(r.output)}`);
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new StepFailure(`witness ${args.join(' ')}: the last line is not JSON:\n${tail(r.output)}`);
  }
}

async function api<T>(ctx: LoopContext, token: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${ctx.studio.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (res.status >= 400) throw new StepFailure(`${method} ${url}: ${res.status} ${text.slice(0, 800)}`);
  return { status: res.status, json: json as T };
}

/** Runs one step: a result line, passed with its detail or failed with the error (and the loop stops). */
async function step<T>(ctx: LoopContext, name: string, fn: () => Promise<{ value: T; detail: string }>): Promise<T> {
  const t0 = performance.now();
  try {
    const { value, detail } = await fn();
    ctx.record(`loop: ${name}`, 'passed', t0, detail);
    return value;
  } catch (error) {
    ctx.record(`loop: ${name}`, 'failed', t0, error instanceof StepFailure ? error.message : ((error as Error).stack ?? String(error)));
    throw new StepFailure('stopped');
  }
}

async function token(ctx: LoopContext, email: string, scope: 'all' | 'training'): Promise<string> {
  const made = await witnessJson<{ token: string }>(ctx, [
    'token',
    'create',
    '--user',
    email,
    '--scope',
    scope,
    '--name',
    `loop test ${scope}`,
    '--json',
  ]);
  if (!made.token) throw new StepFailure(`witness token create --user ${email}: no token in the answer`);
  return made.token;
}

export async function trainingLoop(ctx: LoopContext): Promise<void> {
  try {
    await loop(ctx);
  } catch (error) {
    if (!(error instanceof StepFailure)) ctx.record('loop', 'failed', performance.now(), (error as Error).stack ?? String(error));
  }
}

async function loop(ctx: LoopContext): Promise<void> {
  const bin = path.dirname(ctx.python);
  const pyEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    PYTHONUNBUFFERED: '1',
    HF_HUB_OFFLINE: '1',
    HF_DATASETS_OFFLINE: '1',
    HF_DATASETS_CACHE: path.join(ctx.dir, 'hf-datasets'),
    TOKENIZERS_PARALLELISM: 'false',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const trainerBin = path.join(bin, 'witness-trainer');

  const tiny = path.join(ctx.dir, 'tiny-model');
  await step(ctx, 'the tiny model (scripts/trainers/tiny_model.py) and witness-trainer in the venv', async () => {
    if (!existsSync(trainerBin)) {
      const installed = await installPythonClient(ctx.python, ctx.dir);
      if (!installed.ok) throw new StepFailure(`pip install ./clients/python: ${installed.message}`);
    }
    if (!existsSync(trainerBin)) throw new StepFailure(`${trainerBin} is missing after pip install ./clients/python (its console script)`);
    const r = await runCommand(ctx.python, [path.join(root, 'scripts', 'trainers', 'tiny_model.py'), tiny], { quiet: true, env: pyEnv });
    if (r.code !== 0 || !existsSync(path.join(tiny, 'config.json'))) throw new StepFailure(`exit ${r.code}:\n${tail(r.output)}`);
    return { value: null, detail: tail(r.output, 1) };
  });

  const [trainingToken, leadToken] = await step(ctx, 'tokens for the demo lead (scope training, and all)', async () => ({
    value: [await token(ctx, LEAD, 'training'), await token(ctx, LEAD, 'all')] as const,
    detail: LEAD,
  }));

  const started = await step(ctx, `witness train start --format trl-dpo --base ${BASE_POLICY} --base-uri <tiny model>`, async () => {
    // a run another test left queued in the demo would be claimed first (oldest first): cancel it
    const queued = await witnessJson<{ runs: { id: string }[] }>(ctx, [
      'train',
      'list',
      '--project',
      PROJECT,
      '--status',
      'queued',
      '--json',
    ]);
    for (const r of queued.runs) await witnessJson(ctx, ['train', 'cancel', r.id, '--json']);
    const s = await witnessJson<{ id: string; status: string; rows: number; sha256: string }>(ctx, [
      'train',
      'start',
      '--project',
      PROJECT,
      '--format',
      'trl-dpo',
      '--base',
      BASE_POLICY,
      '--base-uri',
      tiny,
      '--json',
    ]);
    if (s.status !== 'queued' || !(s.rows > 0) || !/^[0-9a-f]{64}$/.test(s.sha256))
      throw new StepFailure(`expected {status: queued, rows > 0, sha256}, got ${JSON.stringify(s)}`);
    const cancelled = queued.runs.length ? ` (${queued.runs.length} queued run(s) left by other tests cancelled first)` : '';
    return { value: s, detail: `run ${s.id}: ${s.rows} rows, sha256 ${s.sha256.slice(0, 12)}…${cancelled}` };
  });

  const work = path.join(ctx.dir, 'trainer-work');
  mkdirSync(work, { recursive: true });
  const py = JSON.stringify(ctx.python);
  const trainCommand =
    `${py} ${JSON.stringify(path.join(root, 'examples', 'train_dpo.py'))} --data {dataset} --model {base_uri} --out {out} ` +
    `--max-steps ${STEPS} --batch-size 2 --grad-accum 1 --lr 1e-3 --max-length 8192`;
  const evalCommand = `${py} ${JSON.stringify(path.join(root, 'examples', 'eval_generate.py'))} --checkpoint-uri {checkpoint_uri} --tasks {tasks} --out {eval_out}`;
  await step(ctx, 'witness-trainer --once: TRL DPO on the tiny model, then the eval command with the trained checkpoint', async () => {
    const r = await runCommand(
      trainerBin,
      [
        '--url',
        ctx.studio.url,
        '--token',
        trainingToken,
        '--once',
        '--wait',
        '60',
        '--work-dir',
        work,
        '--name',
        'loop-test',
        '--command',
        trainCommand,
        '--eval-command',
        evalCommand,
      ],
      { quiet: true, env: pyEnv },
    );
    writeFileSync(path.join(ctx.dir, 'witness-trainer.log'), r.output);
    if (r.code !== 0) throw new StepFailure(`exit ${r.code} (log: witness-trainer.log):\n${tail(r.output, 25)}`);
    return { value: null, detail: `exit 0, ${r.output.trim().split('\n').length} lines of output (witness-trainer.log)` };
  });

  const shown = await step(ctx, 'witness train show --json: succeeded, a checkpoint, a loss series', async () => {
    const run = await witnessJson<RunView>(ctx, ['train', 'show', started.id, '--json']);
    if (run.status !== 'succeeded')
      throw new StepFailure(`status ${run.status}: ${run.failureReason ?? ''}\n${(run.logTail ?? []).slice(-15).join('\n')}`);
    if (!run.checkpoint) throw new StepFailure('no checkpoint');
    if (run.checkpoint.uri !== path.join(work, started.id))
      throw new StepFailure(`checkpoint uri ${run.checkpoint.uri}, expected {out} = ${path.join(work, started.id)}`);
    if (!existsSync(path.join(run.checkpoint.uri, 'model.safetensors')))
      throw new StepFailure(`no model.safetensors in ${run.checkpoint.uri}`);
    const loss = run.metrics.filter((m) => m.name === 'loss').sort((a, b) => a.step - b.step);
    if (loss.length < STEPS || !loss.every((m) => Number.isFinite(m.value)))
      throw new StepFailure(`loss series ${JSON.stringify(loss)}: expected ≥ ${STEPS} finite points`);
    if (new Set(loss.map((m) => m.step)).size !== loss.length) throw new StepFailure(`duplicate loss steps: ${JSON.stringify(loss)}`);
    if (run.evalError) throw new StepFailure(`evalError: ${run.evalError}`);
    const names = [...new Set(run.metrics.map((m) => m.name))];
    return {
      value: run,
      detail: `checkpoint ${run.checkpoint.name}, loss ${loss.map((m) => `${m.step}:${m.value.toFixed(4)}`).join(' ')}, ${names.length} series (${names.includes('rewards/accuracies') ? 'rewards/accuracies among them' : names.join(', ')})`,
    };
  });
  const checkpoint = shown.checkpoint!;

  await step(ctx, 'the eval trajectories imported under the checkpoint (split eval, the eval tasks)', async () => {
    const tasks = await api<string>(ctx, trainingToken, 'GET', `/api/v1/training-runs/${started.id}/eval-tasks`);
    const taskNames = String(tasks.json)
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { task: string }).task);
    const listed = await api<{ trajectories: { taskName: string; split: string; policy: string }[] }>(
      ctx,
      leadToken,
      'GET',
      `/api/v1/trajectories?project=${PROJECT}&policy=${encodeURIComponent(checkpoint.policyId)}&split=eval&limit=200`,
    );
    const got = listed.json.trajectories.map((t) => t.taskName).sort();
    const others = listed.json.trajectories.filter((t) => t.split !== 'eval' || t.policy !== checkpoint.name);
    if (others.length > 0) throw new StepFailure(`rows not (eval, ${checkpoint.name}): ${JSON.stringify(others.slice(0, 3))}`);
    if (taskNames.length === 0) throw new StepFailure('the demo has no eval tasks');
    const missing = taskNames.filter((t) => !got.includes(t));
    if (missing.length > 0 || got.length !== taskNames.length)
      throw new StepFailure(`eval tasks ${JSON.stringify(taskNames)}, trajectories of ${checkpoint.name}: ${JSON.stringify(got)}`);
    return { value: null, detail: `${got.length} trajectories of ${checkpoint.name}: ${got.join(', ')}` };
  });

  const canaryId = await step(ctx, 'the canary campaign opened (checkpoint vs base, blind pairwise)', async () => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const run = await witnessJson<RunView>(ctx, ['train', 'show', started.id, '--json']);
      if (run.canaryCampaign) {
        const campaign = await api<{ campaign: { mode: string; name: string; status: string; progress: { items: number } } }>(
          ctx,
          leadToken,
          'GET',
          `/api/v1/campaigns/${run.canaryCampaign.id}`,
        );
        const c = campaign.json.campaign;
        if (c.mode !== 'pairwise') throw new StepFailure(`the canary campaign is ${c.mode}, expected pairwise`);
        if (!(c.progress.items > 0)) throw new StepFailure(`the canary campaign ${run.canaryCampaign.id} has no items`);
        return { value: run.canaryCampaign.id, detail: `${run.canaryCampaign.id} "${c.name}" (${c.status}, ${c.progress.items} items)` };
      }
      if (Date.now() > deadline)
        throw new StepFailure(`no canary campaign on run ${started.id} within 120 s (the worker's training.canary job)`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  await step(ctx, 'the demo reviewers vote through the API (claim, submit pairwise comparisons)', async () => {
    let votes = 0;
    const voters: string[] = [];
    for (const email of REVIEWERS) {
      const reviewerToken = await token(ctx, email, 'all');
      let mine = 0;
      for (let guard = 0; guard < 50; guard++) {
        const claim = await api<{ assignment: Assignment } | null>(ctx, reviewerToken, 'POST', `/api/v1/campaigns/${canaryId}/assignments`);
        if (claim.status === 204 || !claim.json) break;
        const a = claim.json.assignment;
        const frames = a.videos.map((v) => Number(v.durationInFrames));
        if (frames.length !== 2 || !frames.every((f) => f > 0))
          throw new StepFailure(`assignment ${a.assignment.id}: videos without durationInFrames`);
        const verdicts = Object.fromEntries(a.task.criteria.map((c) => [c.key, 'pass']));
        // the reviewers mostly prefer the right-hand run: a screen side, so the checkpoint wins some and loses some
        const preference = (votes + mine) % 3 === 0 ? -1 : 1;
        await api(ctx, reviewerToken, 'POST', `/api/v1/assignments/${a.assignment.id}/comparisons`, {
          idempotencyKey: `loop-${a.assignment.id}`,
          preference,
          bothBad: false,
          rationale:
            preference < 0 ? 'The left answer addresses the task more directly.' : 'The right answer addresses the task more directly.',
          criteria: { left: verdicts, right: verdicts },
          evidence: [],
          coverage: {
            left: { ranges: [[0, frames[0]]], speeds: [1], seeks: 0 },
            right: { ranges: [[0, frames[1]]], speeds: [1], seeks: 0 },
          },
        });
        mine++;
      }
      if (mine > 0) voters.push(`${email.split('@')[0]} ${mine}`);
      votes += mine;
    }
    if (votes === 0) throw new StepFailure(`no reviewer got an item of the canary campaign ${canaryId}`);
    return { value: votes, detail: `${votes} comparisons (${voters.join(', ')})` };
  });

  await step(ctx, 'the hill-climb page shows the win rate with its interval (Chromium, 1440×900 screenshot)', async () => {
    const shot = path.join(ctx.dir, 'hill-climb.png');
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage({ baseURL: ctx.studio.url, viewport: { width: 1440, height: 900 } });
      await page.goto('/sign-in');
      await page.getByLabel('Email').fill(LEAD);
      await page.getByLabel('Password').fill(LEAD_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
      const res = await page.goto(`/training/hill-climb?project=${PROJECT}`);
      if (!res || res.status() !== 200) throw new StepFailure(`/training/hill-climb?project=${PROJECT}: HTTP ${res?.status()}`);
      await page.getByText(checkpoint.name).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: shot, fullPage: false });
      await page.screenshot({ path: path.join(ctx.dir, 'hill-climb-full.png'), fullPage: true });
      const text = await page.locator('main').innerText();
      // the checkpoint's human blind win rate vs its parent with its 95% interval and n, as the page writes it: "67% [21%, 94%] n=6"
      const human = (await page.getByTestId('human-win').allInnerTexts()).join(' | ');
      const interval = /\d+%\s*\[\d+%,\s*\d+%\]\s*n=[1-9]\d*/.exec(human);
      if (!/win rate/i.test(text) || !interval)
        throw new StepFailure(
          `the page shows no human win rate with an interval (screenshot ${shot}): human-win "${human}"; the page:\n${text.slice(0, 1500)}`,
        );
      return { value: null, detail: `${shot}: human win rate ${interval[0]}` };
    } finally {
      await browser.close();
    }
  });
}

interface Assignment {
  assignment: { id: string };
  task: { criteria: { key: string }[] };
  videos: Record<string, unknown>[];
}
