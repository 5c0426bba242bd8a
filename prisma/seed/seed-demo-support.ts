import { findCampaignIdByName } from '../../lib/campaigns/queries/campaign-list';
import { createCampaign } from '../../lib/campaigns/create-campaign';
import { latestRubricVersion } from '../../lib/campaigns/queries/rubric-list';
import { saveRubricVersion } from '../../lib/campaigns/save-rubric-version';
import { ensureEnvironment, ensureProject } from '../../lib/trajectories/queries/projects';
import { memorySource } from '../../lib/formats/source';
import { importTrajectories } from '../../lib/ingest/import-trajectories';
import { defaultReviewRubric } from '../../lib/review/default-rubric';

/**
 * The demo's second team: a customer-support group with its own lead (quinn@) and reviewer
 * (rio@), in its own project, so the membership boundary can be seen: lead@ never sees these
 * conversations or this campaign, quinn@ never sees the terminal and physics project.
 * The conversations are OpenAI chat messages (`{model, messages}`, the shape the `openai`
 * importer reads, see lib/formats/fixtures/openai), written for the demo.
 */
export const DEMO_SUPPORT_PROJECT = { slug: 'support-desk', name: 'Support desk: customer-support agents' } as const;
export const DEMO_SUPPORT_CAMPAIGN = 'Support replies: correct and kind';

const conversations: { model: string; messages: { role: string; content: string }[] }[] = [
  {
    model: 'acme/helper-3b',
    messages: [
      { role: 'system', content: 'You are the support agent of a photo-printing shop. Refunds within 30 days of delivery.' },
      { role: 'user', content: 'My prints arrived with a blue cast on every photo. Order 4411, delivered 9 days ago. Can I get a refund?' },
      {
        role: 'assistant',
        content:
          'I am sorry the colours came out wrong. Order 4411 was delivered 9 days ago, inside our 30-day window, so you can have a full refund or a free reprint. Which would you prefer?',
      },
    ],
  },
  {
    model: 'acme/helper-1b',
    messages: [
      { role: 'system', content: 'You are the support agent of a photo-printing shop. Refunds within 30 days of delivery.' },
      { role: 'user', content: 'My prints arrived with a blue cast on every photo. Order 4411, delivered 9 days ago. Can I get a refund?' },
      { role: 'assistant', content: 'Refunds are not possible for colour issues. Please check your monitor calibration.' },
    ],
  },
  {
    model: 'acme/helper-3b',
    messages: [
      { role: 'system', content: 'You are the support agent of a photo-printing shop. Shipping to the EU takes 5-8 working days.' },
      { role: 'user', content: 'How long does shipping to Lisbon take? I need the album for a wedding in 6 days.' },
      {
        role: 'assistant',
        content:
          'Shipping to Portugal takes 5 to 8 working days, so 6 days is tight and I cannot promise it. Express delivery (2-3 working days) would get it there in time.',
      },
    ],
  },
  {
    model: 'acme/helper-1b',
    messages: [
      { role: 'system', content: 'You are the support agent of a photo-printing shop. Shipping to the EU takes 5-8 working days.' },
      { role: 'user', content: 'How long does shipping to Lisbon take? I need the album for a wedding in 6 days.' },
      { role: 'assistant', content: 'Shipping to Lisbon takes 3 days, no problem!' },
    ],
  },
];

/** How many conversations the support project holds. */
export const DEMO_SUPPORT_TRAJECTORIES = conversations.length;

/** Seeds the support project, its conversations and one open campaign (idempotent). Returns the project id. */
export async function seedDemoSupport(leadId: string | null): Promise<{ projectId: string; imported: number; campaignCreated: boolean }> {
  const project = await ensureProject({
    ...DEMO_SUPPORT_PROJECT,
    description: 'A second team in the same studio: chat support agents, reviewed by their own group.',
  });
  await ensureEnvironment(project.id, 'support-chat', 'Customer questions answered against the shop policy');
  const report = await importTrajectories(
    conversations.map((c, i) => ({
      ok: true as const,
      path: `support-${i + 1}.json`,
      input: { kind: 'file' as const, file: memorySource(`support-${i + 1}.json`, JSON.stringify(c)) },
    })),
    { projectId: project.id, format: 'openai', environment: 'support-chat', split: 'train', policy: null, importedById: null },
  );
  if (report.failed > 0) throw new Error(`demo support: ${report.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const rubric =
    (await latestRubricVersion(project.id, 'Support review'))?.id ??
    (await saveRubricVersion(project.id, 'Support review', defaultReviewRubric(), leadId)).versionId;
  let campaignCreated = false;
  if (!(await findCampaignIdByName(project.id, DEMO_SUPPORT_CAMPAIGN))) {
    await createCampaign(project.id, { name: DEMO_SUPPORT_CAMPAIGN, mode: 'single', rubricVersionId: rubric, overlap: 2 }, leadId);
    campaignCreated = true;
  }
  return { projectId: project.id, imported: report.imported, campaignCreated };
}
