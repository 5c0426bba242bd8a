import { z } from 'zod';
import { roleInProject, visibleProjectIds } from '../../auth/project-access';
import { canAccess } from '../../auth/roles';
import { viewCampaignList } from '../../campaigns/view-campaign-list';
import { viewReviewerHome } from '../../review/view-reviewer-home';
import { listProjectsFor } from '../../trajectories/list-projects-for';
import { projectSlugSchema } from '../../trajectories/project-schemas';
import { defineTool } from '../mcp-tool';
import { cursorInput, pageOf } from '../paging';

/** The projects and campaigns an agent can work in: GET /api/v1/projects and /api/v1/campaigns, and the reviewer's home. */

export const listProjectsTool = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description:
    'The projects this token reaches, with your role in each and their counts (tasks, trajectories, campaigns). Paged: pass nextCursor as cursor for more.',
  input: z.object({ cursor: cursorInput, limit: z.number().int().min(1).max(50).default(20) }),
  kind: 'read',
  area: 'studio',
  async run(input, { user }) {
    const projects = await listProjectsFor(user.access, 'reviewer');
    const { page, nextCursor, total } = pageOf(projects, input.cursor, input.limit);
    return {
      total,
      projects: page.map((p) => ({
        slug: p.slug,
        name: p.name,
        role: roleInProject(user.access, p.id),
        trajectories: p.counts.trajectories,
        tasks: p.counts.tasks,
        campaigns: p.counts.campaigns,
      })),
      nextCursor,
    };
  },
});

export const listCampaignsTool = defineTool({
  name: 'list_campaigns',
  title: 'List campaigns',
  description:
    "Campaigns with their progress, newest first. Leads: every campaign of the projects they lead (items, reviews done of items × overlap, complete items). Reviewers: the open campaigns they may review in (items left to them). Use a campaign's id with claim_next_item, get_agreement, list_disagreements.",
  input: z.object({
    project: projectSlugSchema.optional().describe("only this project's campaigns (its slug)"),
    status: z.enum(['draft', 'open', 'closed']).optional().describe('only campaigns in this status'),
    cursor: cursorInput,
    limit: z.number().int().min(1).max(50).default(20),
  }),
  kind: 'read',
  area: 'review',
  async run(input, { user, now }) {
    const led = canAccess(user.role, 'lead') && visibleProjectIds(user.access, 'lead')?.length !== 0;
    const rows = led
      ? (await viewCampaignList(user, { project: input.project })).map((c) => ({
          id: c.id,
          name: c.name,
          project: c.project.slug,
          mode: c.mode,
          status: c.status as string,
          overlap: c.overlap,
          rubric: `${c.rubric.name} v${c.rubric.version}`,
          items: c.items,
          reviewsDone: c.reviewsDone,
          reviewsTarget: c.reviewsTarget,
          itemsComplete: c.itemsComplete,
        }))
      : (
          await viewReviewerHome(
            { id: user.id, expertise: user.expertise, projectIds: visibleProjectIds(user.access, 'reviewer') },
            now(),
            0,
          )
        ).queues
          .filter((q) => input.project === undefined || q.project.slug === input.project)
          .map((q) => ({
            id: q.id,
            name: q.name,
            project: q.project.slug,
            mode: q.mode,
            status: 'open',
            overlap: q.overlap,
            items: q.totalItems,
            availableToYou: q.available,
            doneByYou: q.doneTotal,
          }));
    const filtered = input.status ? rows.filter((r) => r.status === input.status) : rows;
    const { page, nextCursor, total } = pageOf(filtered, input.cursor, input.limit);
    return { total, campaigns: page, nextCursor };
  },
});
