import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { labelRecords } from './queries/dataset-items';
import { resolveDatasetScope } from './resolve-dataset-scope';
import { exportDataset } from './export-dataset';
import { datasetFormats } from './formats';
import { fakeIo } from '../../cli/io-testing';

function lines(file: string) {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('dataset export over seeded reviews', () => {
  let dir: string;
  beforeEach(async () => {
    await resetDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'witness-export-'));
  });

  it('the guard refuses a training export that would include an eval task, from the CLI, and writes nothing', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const io = fakeIo();
    const out = path.join(dir, 'dpo.jsonl');
    const code = await main(['export', '--format', 'trl-dpo', '--out', out, '--project', seeded.slug, '--json'], io);
    expect(code).toBe(1);
    expect(io.err).toMatch(/error: Refused: 3 items belong to eval-split tasks \(task held-out-0\).*See them at \/trajectories\?project=/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exports DPO pairs with --split train: rows, provenance, card; the same content gives the same bytes', async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
    const io = fakeIo();
    const out = path.join(dir, 'dpo.jsonl');
    expect(await main(['export', '--format', 'trl-dpo', '--out', out, '--project', seeded.slug, '--split', 'train', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out);
    expect(Object.keys(report)).toEqual(['format', 'rows', 'path', 'sha256', 'excluded']);
    // 3 pairwise items (one per train task) + 3 score pairs (good 4.5/5 vs bad 1.5/5 in the single campaign)
    expect(report).toMatchObject({ format: 'trl-dpo', rows: 6, path: out, excluded: {} });
    const rows = lines(out);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['prompt', 'chosen', 'rejected', 'tools', 'witness']);
      expect(row.chosen.at(-1).content).toMatch(/^Fixed task-\d properly\.$/);
      expect(row.rejected.at(-1).content).toMatch(/^Deleted the tests/);
      expect(row.witness.split).toBe('train');
      expect(row.witness.reviewers).toBeGreaterThanOrEqual(2);
      expect(row.witness.review_ids.length).toBe(row.witness.reviewers);
    }
    const pairwise = rows.filter((r) => r.witness.campaign_id === seeded.pairwiseCampaignId);
    expect(pairwise).toHaveLength(3);
    expect(pairwise[0].witness).toMatchObject({ agreement: 1, adjudicated: false, consensus: 'majority', rubric_version: 1 });
    expect(pairwise[0].prompt).toEqual([{ role: 'user', content: expect.stringMatching(/^Solve task-\d$/) }]);
    const card = readFileSync(`${out}.card.md`, 'utf8');
    expect(card).toContain('# Training dataset: trl-dpo');
    expect(card).toContain(report.sha256);
    expect(card).toMatch(/Krippendorff's alpha \(nominal\)/);

    const again = fakeIo();
    const out2 = path.join(dir, 'dpo-again.jsonl');
    expect(
      await main(['export', '--format', 'trl-dpo', '--out', out2, '--project', seeded.slug, '--split', 'train', '--json'], again),
    ).toBe(0);
    expect(JSON.parse(again.out).sha256).toBe(report.sha256);
    expect(readFileSync(out2)).toEqual(readFileSync(out));
  });

  it('an adjudication overrides the reviewers and is marked; thresholds exclude with reasons', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 0 });
    const item = await db().campaignItem.findFirstOrThrow({
      where: { campaignId: seeded.pairwiseCampaignId },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    await db().adjudication.create({ data: { campaignItemId: item.id, preference: 0, rationale: 'equally good on reflection' } });
    const result = await exportDataset(
      { format: 'trl-dpo', projectId: seeded.projectId, campaignId: seeded.pairwiseCampaignId },
      path.join(dir, 'a.jsonl'),
    );
    expect(result.rows).toBe(1);
    expect(result.excluded).toEqual({ tie: 1 });
    const strict = await exportDataset(
      { format: 'trl-dpo', projectId: seeded.projectId, campaignId: seeded.pairwiseCampaignId, minReviews: 3 },
      path.join(dir, 'b.jsonl'),
    );
    expect(strict.excluded).toEqual({ tie: 1, below_min_reviews: 1 });
  });

  it("label pages are keyset-paged by item then id: every current label once, an item's labels together", async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 0 });
    const scope = await resolveDatasetScope({ projectId: seeded.projectId });
    const seen: string[] = [];
    for await (const page of labelRecords(scope, seeded.pairwiseCampaignId, 1))
      seen.push(...page.map((r) => `${r.itemId}/${r.reviewerId}`));
    expect(seen).toHaveLength(
      await db().pairwiseComparison.count({ where: { isCurrent: true, item: { campaignId: seeded.pairwiseCampaignId } } }),
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.map((s) => s.split('/')[0])).toEqual([...seen.map((s) => s.split('/')[0])].sort());
  });

  it('every format exports from the seeded reviews', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const counts: Record<string, number> = {};
    for (const format of datasetFormats) {
      const result = await exportDataset({ format, projectId: seeded.projectId, split: 'train' }, path.join(dir, `${format}.jsonl`));
      counts[format] = result.rows;
      for (const row of lines(result.path)) expect(JSON.stringify(row)).not.toContain('held-out');
    }
    // pairs: 2 pairwise + 2 score pairs; KTO/slime: 4 single items; SFT: 2 accepted; PRM: 2 accepted (all true) + 2 flagged
    expect(counts).toEqual({ 'trl-dpo': 4, 'trl-kto': 4, 'trl-reward': 4, 'trl-sft': 2, 'trl-prm': 4, openrlhf: 4, slime: 4 });
    const prm = lines(path.join(dir, 'trl-prm.jsonl'));
    expect(prm.map((r) => r.labels)).toContainEqual([true, false]);
  });

  it('--split eval writes an evaluation set, labelled in the card and in every row', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 1 });
    const io = fakeIo();
    const out = path.join(dir, 'eval.jsonl');
    expect(await main(['export', '--format', 'trl-kto', '--out', out, '--project', seeded.slug, '--split', 'eval'], io)).toBe(0);
    expect(io.out).toMatch(/^EVALUATION SET 2 rows \(trl-kto\)/);
    const rows = lines(out);
    expect(rows.map((r) => [r.witness.task, r.witness.purpose])).toEqual([
      ['held-out-0', 'evaluation'],
      ['held-out-0', 'evaluation'],
    ]);
    expect(readFileSync(`${out}.card.md`, 'utf8').split('\n')[0]).toBe('# EVALUATION SET: trl-kto');
  });

  it('a process killed mid-write leaves nothing under the final name', async () => {
    const seeded = await seedLabelledProject({ tasks: 4, evalTasks: 0 });
    const out = path.join(dir, 'killed.jsonl');
    const child = promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'lib/datasets/kill-mid-export.fixture.ts',
      seeded.projectId,
      out,
    ]);
    await expect(child).rejects.toMatchObject({ signal: 'SIGKILL' });
    const left = readdirSync(dir);
    expect(left).not.toContain('killed.jsonl');
    expect(left).not.toContain('killed.jsonl.card.md');
    // it was killed while writing: the temp file is there, with part of the rows
    const temp = left.find((f) => f.startsWith('killed.jsonl.tmp-'));
    expect(temp).toBeDefined();
    expect(readFileSync(path.join(dir, temp!), 'utf8')).not.toBe('');
  });
});
