import { db } from '../../db/client';
import { listLatestRubrics, type RubricChoice } from './rubric-list';

export interface CampaignFormProject {
  slug: string;
  name: string;
  trajectories: number;
  environments: string[];
  policies: string[];
  rubrics: RubricChoice[];
}

/** What the lead's create form offers per project: environments, policies and rubrics to reuse (JSON-safe). */
export async function campaignFormOptions(projectIds: string[] | null): Promise<CampaignFormProject[]> {
  const projects = await db().project.findMany({
    where: projectIds === null ? {} : { id: { in: projectIds } },
    select: {
      id: true,
      slug: true,
      name: true,
      _count: { select: { trajectories: true } },
      environments: { select: { name: true }, orderBy: { name: 'asc' } },
      policies: { select: { name: true }, orderBy: { name: 'asc' } },
    },
    orderBy: { createdAt: 'asc' },
  });
  return Promise.all(
    projects.map(async (p) => ({
      slug: p.slug,
      name: p.name,
      trajectories: p._count.trajectories,
      environments: p.environments.map((e) => e.name),
      policies: p.policies.map((x) => x.name),
      rubrics: await listLatestRubrics(p.id),
    })),
  );
}
