import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { claimNextItem } from '../claim-next-item';
import { settleClaim } from '../settle-claim';
import { createCampaign } from '../../campaigns/create-campaign';
import { db } from '../../db/client';
import { inSqlTransaction } from '../../db/sql';
import { ensureProject } from '../../trajectories/queries/projects';
import { reviewerQueues } from './review-queue';
import { resetDatabase } from '../../db/test/reset';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { saveTestRubric } from '../../db/test/test-campaign';

describe('reviewer queues', () => {
  beforeEach(resetDatabase);

  it('lists open campaigns the reviewer qualifies for, with items open to them and done today', async () => {
    const project = await ensureProject({ slug: 'q', name: 'q' });
    for (const name of ['a', 'b', 'c']) {
      const t = buildTrajectory({ format: 'openai', task: { name }, steps: [{ source: 'agent', text: name }] });
      await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
    }
    const rubric = await saveTestRubric(project.id);
    const general = await createCampaign(
      project.id,
      { name: 'general', mode: 'single', rubricVersionId: rubric.versionId, overlap: 1 },
      null,
    );
    await createCampaign(
      project.id,
      { name: 'physics only', mode: 'single', rubricVersionId: rubric.versionId, overlap: 1, requiredExpertise: ['physics'] },
      null,
    );
    const reviewer = { id: randomUUID(), expertise: ['software'] };
    await db().user.create({ data: { id: reviewer.id, email: `${reviewer.id}@x.test`, name: 'R', role: 'reviewer' } });
    const now = new Date();
    const claim = (await claimNextItem(general.id, reviewer, now))!;
    await inSqlTransaction((run) => settleClaim(run, claim.assignmentId, reviewer.id, 1, now));

    const queues = await reviewerQueues({ ...reviewer, projectIds: null }, now);
    expect(queues.map((q) => q.name)).toEqual(['general']);
    expect(queues[0]).toMatchObject({ available: 2, doneToday: 1, doneTotal: 1, totalItems: 3 });
    expect((await reviewerQueues({ ...reviewer, expertise: ['software', 'physics'], projectIds: null }, now)).map((q) => q.name)).toEqual([
      'general',
      'physics only',
    ]);
  });
});
