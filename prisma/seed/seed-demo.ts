import { ensureEnvironment, ensureProject } from '../../lib/db/projects';
import { ensureUser } from '../../lib/db/users';
import { demoUsers } from './demo-users';

export interface SeedReport {
  usersCreated: number;
  projectId: string;
}

/**
 * The demo studio a newcomer clicks through. Idempotent: every step looks up before it
 * creates, so starting twice duplicates nothing. Later features extend it here.
 */
export async function seedDemo(): Promise<SeedReport> {
  let usersCreated = 0;
  for (const u of demoUsers) {
    const { created } = await ensureUser(u);
    if (created) usersCreated++;
  }
  const project = await ensureProject({
    slug: 'demo',
    name: 'Demo: terminal and physics agents',
    description: 'Agent trajectories from a terminal benchmark and a physics derivation set, ready to review.',
  });
  await ensureEnvironment(project.id, 'terminal-bench', 'Shell tasks in a container, checked by test scripts');
  await ensureEnvironment(project.id, 'physics-derivations', 'Derive a result; a physicist checks each step');
  return { usersCreated, projectId: project.id };
}
