import { z } from 'zod';
import type { Split } from '../../agreement/disagreements';
import { DISAGREEMENTS_PER_PAGE, viewDisagreementQueue } from '../../agreement/view-disagreement-queue';
import { summarizeCampaignAgreement } from '../../agreement/summarize-campaign-agreement';
import { defineTool } from '../mcp-tool';
import { makeCursor, readCursor } from '../paging';

/** A campaign's agreement (the agreement dashboard's stored snapshot) and its disagreement queue, for leads. */

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

export const getAgreementTool = defineTool({
  name: 'get_agreement',
  title: "A campaign's agreement",
  description:
    "Inter-rater agreement of a campaign's reviews per rubric criterion (Krippendorff's alpha with its bootstrap 95% interval, items, reviewers), as the agreement dashboard shows it (its stored snapshot: state 'computing' while a large campaign's figures are built; call again). includeAgents: agent reviewers as raters too. Leads.",
  input: z.object({ campaignId: z.string().min(1).max(64), includeAgents: z.boolean().default(false) }),
  kind: 'read',
  area: 'lead',
  async run(input, { user }) {
    const answer = await summarizeCampaignAgreement(user, input);
    return {
      ...answer,
      criteria: answer.criteria.slice(0, 60).map((c) => ({
        ...c,
        coefficient: round(c.coefficient),
        interval: c.interval ? { low: round(c.interval.low), high: round(c.interval.high) } : null,
      })),
      ...(answer.criteria.length > 60 ? { moreCriteria: answer.criteria.length - 60 } : {}),
    };
  },
});

const queueCursor = z.object({ p: z.number().int().min(0), r: z.number().int().min(0) });
const PAGE = 20;

export const listDisagreementsTool = defineTool({
  name: 'list_disagreements',
  title: 'Disagreements to adjudicate',
  description:
    "A campaign's items whose reviewers disagree beyond the thresholds, worst first (the adjudication queue): per item its task, reviews and each split question with its answers and consensus, and whether it is adjudicated. 20 a page: pass nextCursor as cursor. Leads.",
  input: z.object({ campaignId: z.string().min(1).max(64), cursor: z.string().max(200).optional() }),
  kind: 'read',
  area: 'lead',
  async run(input, { user, now }) {
    const at = readCursor(input.cursor, queueCursor) ?? { p: 0, r: 0 };
    const queue = await viewDisagreementQueue(user, input.campaignId, {}, at.p, now());
    const rows = queue.rows.slice(at.r, at.r + PAGE);
    const nextRow = at.r + PAGE;
    const total = queue.view.snapshot?.payload.count ?? 0;
    const more =
      nextRow < queue.rows.length ? { p: at.p, r: nextRow } : queue.rows.length === DISAGREEMENTS_PER_PAGE ? { p: at.p + 1, r: 0 } : null;
    return {
      state: queue.view.state,
      total,
      adjudicated: queue.adjudicated,
      disagreements: rows.map((d) => ({
        itemId: d.itemId,
        task: d.taskName,
        reviews: d.reviews,
        adjudicated: d.adjudicated,
        splits: (d.splits as Split[]).slice(0, 10).map((s) => ({
          question: s.label,
          ...(s.detail ? { detail: s.detail } : {}),
          answers: s.answers,
          consensus: round(s.consensus),
        })),
      })),
      nextCursor: more && (more.p * DISAGREEMENTS_PER_PAGE + more.r < total || more.r > 0) ? makeCursor(more) : null,
    };
  },
});
