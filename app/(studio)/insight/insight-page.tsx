import type { ReactNode } from 'react';
import { InsightError } from '@/components/insight/insight-error';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { visibleProjectIds } from '@/lib/auth/project-access';
import type { InsightProject } from '@/lib/insight/queries/insight-projects';
import { requirePageUser } from '../../_server/current-user';
import { orErrorPage } from '../../_server/or-not-found';

export interface InsightPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Each insight page's title, link and what it says instead of its figures. */
const pages = {
  environments: {
    title: 'Environments',
    badLink: 'Nothing to show for this link',
    empty: 'Import trajectories and run a review campaign; this page then ranks their environments.',
  },
  policies: {
    title: 'Policies',
    badLink: 'Nothing to show for this link',
    empty: 'Import trajectories and review them; this page then ranks their policies.',
  },
  compare: {
    title: 'Compare checkpoints',
    badLink: 'Nothing to compare for this link',
    empty: 'Import runs of two checkpoints and review them; this page then compares them.',
  },
};

/**
 * An insight page's data for the lead (`view`: the page's use-case, the same the API calls), or
 * the page to show instead (`instead`): a project the caller does not lead answers 404, the same
 * as one that does not exist; a bad link (another unknown name, a malformed parameter) says so
 * with a way to start over; no project yet, `empty`.
 */
export async function loadInsightPage<D>(
  name: keyof typeof pages,
  { searchParams }: InsightPageProps,
  view: (
    params: Record<string, string | string[] | undefined>,
    projectIds: string[] | null,
  ) => Promise<{ projects: InsightProject[]; data: D | null }>,
): Promise<{ instead: ReactNode } | { projects: InsightProject[]; data: D }> {
  const page = pages[name];
  const user = await requirePageUser('lead');
  const loaded = await orErrorPage(async () => view(await searchParams, visibleProjectIds(user.access, 'lead')), {
    show: ['NOT_FOUND', 'BAD_INPUT'],
    notFoundField: 'project',
  });
  if (loaded.error) {
    return {
      instead: (
        <>
          <PageHeader title={page.title} />
          <InsightError title={page.badLink} message={loaded.error.message} href={`/insight/${name}`} />
        </>
      ),
    };
  }
  const { projects, data } = loaded.data;
  if (!data) {
    return {
      instead: (
        <>
          <PageHeader title={page.title} />
          <EmptyState title="No project yet">{page.empty}</EmptyState>
        </>
      ),
    };
  }
  return { projects, data };
}
