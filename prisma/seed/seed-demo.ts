import { ensureEnvironment, ensureProject } from '../../lib/trajectories/queries/projects';
import { ensureUser } from '../../lib/auth/create-user';
import { demoUsers, type DemoProject } from './demo-users';
import { ensureFirstMemberships } from '../../lib/auth/queries/memberships';
import { seedDemoSupport } from './seed-demo-support';
import { seedDemoCampaigns, type DemoCampaignsReport } from './seed-demo-campaigns';
import { seedDemoTrajectories } from './seed-demo-trajectories';

export interface SeedReport {
  usersCreated: number;
  projectId: string;
  /** demo trajectories created by this run (0 on a re-run) */
  trajectoriesImported: number;
  /** demo trajectories in the project already (same content) */
  trajectoriesSkipped: number;
  /** the checkpoint sweep and the demo review campaigns (prisma/seed/seed-demo-campaigns.ts) */
  campaigns: DemoCampaignsReport;
  /** the second team's project (prisma/seed/seed-demo-support.ts) */
  supportProjectId: string;
}

/**
 * The demo studio a newcomer clicks through. Idempotent: every step looks up before it
 * creates, so starting twice duplicates nothing. Later features extend it here.
 */
export async function seedDemo(): Promise<SeedReport> {
  let usersCreated = 0;
  let leadId: string | null = null;
  const users: { id: string; email: string; expertise: string[] }[] = [];
  for (const u of demoUsers) {
    const { user, created } = await ensureUser(u);
    users.push(user);
    if (created) usersCreated++;
    if (u.role === 'lead') leadId ??= user.id;
  }
  const project = await ensureProject({
    slug: 'demo',
    name: 'Demo: terminal and physics agents',
    description: 'Agent trajectories from a terminal benchmark and a physics derivation set, ready to review.',
  });
  await ensureEnvironment(project.id, 'terminal-bench', 'Shell tasks in a container, checked by test scripts');
  await ensureEnvironment(project.id, 'physics-derivations', 'Derive a result; a physicist checks each step');
  // seeded, not uploaded: no uploader, so the review rules keep nobody off them (only API uploads record one)
  const trajectories = await seedDemoTrajectories(project.id, { importedById: null });
  const campaigns = await seedDemoCampaigns(project.id, users, leadId);
  const quinn = users.find((u) => u.email === 'quinn@witness.local');
  const support = await seedDemoSupport(quinn?.id ?? leadId);
  // who is in which project: each demo user joins their projects once (a user an admin has
  // since moved between projects keeps what the admin chose: only users with no membership join)
  const projectIds: Record<DemoProject, string> = { demo: project.id, 'support-desk': support.projectId };
  for (const u of demoUsers) {
    const user = users.find((x) => x.email === u.email)!;
    const wanted = Object.entries(u.projects).map(([slug, role]) => ({ projectId: projectIds[slug as DemoProject], role: role! }));
    await ensureFirstMemberships(user.id, wanted);
  }
  return {
    supportProjectId: support.projectId,
    usersCreated,
    projectId: project.id,
    trajectoriesImported: trajectories.imported,
    trajectoriesSkipped: trajectories.skipped,
    campaigns,
  };
}
