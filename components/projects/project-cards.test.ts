import { QueryClientProvider } from '@tanstack/react-query';
import { makeQueryClient } from '../providers/make-query-client';
import { AppRouterContext, type AppRouterInstance } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProjectSummary } from '@/lib/trajectories/queries/projects';
import { ProjectCards } from './project-cards';
import type { ProjectsViewer } from './no-projects';
import { projectsQueryKey } from './projects-query';

function project(slug: string, members: number): ProjectSummary {
  return {
    id: `id-${slug}`,
    slug,
    name: slug,
    description: '',
    createdAt: '2026-12-06T00:00:00.000Z',
    counts: { environments: 1, tasks: 1, trajectories: 1, campaigns: 0, members },
  };
}

// IntentLink asks for the app router, which Next mounts; a server render never calls it (it prefetches on hover)
const router = new Proxy({}, { get: () => () => undefined }) as AppRouterInstance;

/** The cards as the lead page's server render makes them: the query's data already in the client's cache. */
function render(projects: ProjectSummary[], viewer: ProjectsViewer): string {
  const client = makeQueryClient();
  client.setQueryData(projectsQueryKey, projects);
  return renderToStaticMarkup(
    createElement(
      AppRouterContext.Provider,
      { value: router },
      createElement(QueryClientProvider, { client }, createElement(ProjectCards, { viewer })),
    ),
  );
}
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('ProjectCards', () => {
  const admin = { email: 'root@example.com', admin: true };
  const lead = { email: 'lea@example.com', admin: false };

  it('tells an admin how to add members to a project that has none (one made by witness import), and only there', () => {
    const html = render([project('outside', 0), project('staffed', 2)], admin);
    expect(html.match(/data-testid="no-members"/g)).toHaveLength(1);
    expect(text(html)).toContain(
      'No members yet: only admins reach this project. Add its lead and reviewers on the Admin page or with npm run -s witness -- member add --project outside --user EMAIL --role lead|reviewer',
    );
    expect(html).toContain('href="/admin"');
    // a lead only sees projects they are a member of: no such note
    expect(render([project('staffed', 2)], lead)).not.toContain('no-members');
  });

  it('tells a lead with no project what to ask an admin for, and an admin how to make one', () => {
    expect(text(render([], lead))).toContain(
      'You are not a lead of any project. Ask an admin to add you, on the Admin page or with npm run -s witness -- member add --project PROJECT --user lea@example.com --role lead',
    );
    const forAdmin = text(render([], admin));
    expect(forAdmin).toContain('npm run -s witness -- import PATH --project NAME --lead EMAIL');
    expect(forAdmin).not.toContain('Ask an admin');
  });
});
