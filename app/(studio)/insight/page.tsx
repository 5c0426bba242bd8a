import { redirect } from 'next/navigation';
import { requirePageUser } from '../../_server/current-user';

export default async function InsightPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('lead');
  const project = (await searchParams).project;
  redirect(
    typeof project === 'string' && project ? `/insight/environments?project=${encodeURIComponent(project)}` : '/insight/environments',
  );
}
