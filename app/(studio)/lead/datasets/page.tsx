import { ProjectTabs } from '@/components/projects/project-tabs';
import { notFound } from 'next/navigation';
import { ExportForm } from '@/components/datasets/export-form';
import { ExportList } from '@/components/datasets/export-list';
import { EmptyState } from '@/components/ui/empty-state';
import { NoProjects } from '@/components/projects/no-projects';
import { PageHeader } from '@/components/ui/page-header';
import { exportView } from '@/lib/datasets/export-view';
import { datasetFormats, formatLabel } from '@/lib/datasets/formats';
import { listExportableCampaigns, listProjectExports } from '@/lib/datasets/list-exports';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { listRunsForExports } from '@/lib/training/list-runs-for-exports';
import { viewTrainForm } from '@/lib/training/view-train-form';
import { TrainOnLabels } from '@/components/training/train-on-labels';
import { startTrainingRunAction } from '../../training/actions';
import { requirePageUser } from '../../../_server/current-user';
import { requestExportAction } from './actions';

export const metadata = { title: 'Datasets' };
export const dynamic = 'force-dynamic';

export default async function DatasetsPage({ searchParams }: { searchParams: Promise<{ project?: string | string[] }> }) {
  const user = await requirePageUser('lead');
  const wanted = (await searchParams).project;
  const projects = await listProjectsFor(user.access, 'lead');
  // a project named in the URL that the caller does not lead is a 404, like any other project's id
  if (typeof wanted === 'string' && wanted && !projects.some((p) => p.slug === wanted)) notFound();
  const project = projects.find((p) => p.slug === wanted) ?? projects[0];
  if (!project) {
    return (
      <>
        <PageHeader title="Datasets" />
        <NoProjects viewer={{ email: user.email, admin: user.role === 'admin' }}>
          Import trajectories and run a review campaign; its labels become datasets here.
        </NoProjects>
      </>
    );
  }
  const [campaigns, exports] = await Promise.all([listExportableCampaigns(user, project.id), listProjectExports(user, project.id)]);
  const [train, runs] = await Promise.all([
    viewTrainForm(user, project.id),
    listRunsForExports(
      user,
      project.id,
      exports.map((e) => e.id),
    ),
  ]);
  return (
    <>
      <PageHeader
        title="Datasets"
        description="Turn consensus labels into training data in the formats trainers load. Eval-split tasks never go into a training set."
      />
      <ProjectTabs projects={projects} current={project.slug} href={(slug) => `/lead/datasets?project=${encodeURIComponent(slug)}`} />
      <section aria-labelledby="new-export" className="mb-10">
        <h2 id="new-export" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          New export — {project.name}
        </h2>
        {campaigns.length === 0 ? (
          <EmptyState title="No campaigns in this project">
            Datasets are built from review campaigns: create one and collect reviews first.
          </EmptyState>
        ) : (
          <ExportForm
            projectId={project.id}
            formats={datasetFormats.map((f) => ({ value: f, label: formatLabel[f] }))}
            campaigns={campaigns.map((c) => ({ id: c.id, name: c.name, mode: c.mode }))}
            requestExport={requestExportAction}
          />
        )}
      </section>
      {campaigns.length > 0 ? (
        <section aria-label="Train on these labels" className="mb-10">
          <TrainOnLabels
            projectId={project.id}
            campaigns={campaigns.map((c) => ({ id: c.id, name: c.name }))}
            {...train}
            start={startTrainingRunAction}
          />
        </section>
      ) : null}
      <section aria-labelledby="versions">
        <h2 id="versions" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Versions
        </h2>
        {exports.length === 0 ? (
          <EmptyState title="No exports yet">Build one above; every version stays downloadable, unchanged.</EmptyState>
        ) : (
          <ExportList initial={exports.map(exportView)} campaigns={Object.fromEntries(campaigns.map((c) => [c.id, c.name]))} runs={runs} />
        )}
      </section>
    </>
  );
}
