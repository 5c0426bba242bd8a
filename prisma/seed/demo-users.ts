import type { ProjectRole } from '../../lib/auth/project-access';
import type { Role } from '../../lib/auth/roles';

/** The demo's two projects (prisma/seed/seed-demo.ts, seed-demo-support.ts). */
export type DemoProject = 'demo' | 'support-desk';

/**
 * The demo logins `witness start` seeds and prints, with the projects each belongs to (admins:
 * every project). Two teams: the terminal-and-physics group (lead@ and its reviewers) and the
 * support group (quinn@, rio@). Local demo only: change or disable (WITNESS_DEMO=0) in production.
 */
export const demoUsers: {
  email: string;
  name: string;
  role: Role;
  password: string;
  expertise: string[];
  projects: Partial<Record<DemoProject, ProjectRole>>;
}[] = [
  { email: 'admin@witness.local', name: 'Ada Admin', role: 'admin', password: 'witness-demo-admin', expertise: [], projects: {} },
  {
    email: 'lead@witness.local',
    name: 'Lee Lead',
    role: 'lead',
    password: 'witness-demo-lead',
    expertise: ['software'],
    projects: { demo: 'lead' },
  },
  {
    email: 'reviewer@witness.local',
    name: 'Rae Reviewer',
    role: 'reviewer',
    password: 'witness-demo-reviewer',
    expertise: ['software'],
    projects: { demo: 'reviewer' },
  },
  {
    email: 'physicist@witness.local',
    name: 'Paz Physicist',
    role: 'reviewer',
    password: 'witness-demo-physics',
    expertise: ['physics'],
    projects: { demo: 'reviewer' },
  },
  // reviewers whose reviews fill the demo campaigns (prisma/seed/seed-demo-campaigns.ts)
  {
    email: 'sol@witness.local',
    name: 'Sol Shell',
    role: 'reviewer',
    password: 'witness-demo-sol',
    expertise: ['software'],
    projects: { demo: 'reviewer' },
  },
  {
    email: 'kit@witness.local',
    name: 'Kit Compiler',
    role: 'reviewer',
    password: 'witness-demo-kit',
    expertise: ['software'],
    projects: { demo: 'reviewer' },
  },
  {
    email: 'noor@witness.local',
    name: 'Noor Newton',
    role: 'reviewer',
    password: 'witness-demo-noor',
    expertise: ['physics', 'software'],
    projects: { demo: 'reviewer' },
  },
  // the second team (prisma/seed/seed-demo-support.ts): its own lead and reviewer, nothing in the demo project
  {
    email: 'quinn@witness.local',
    name: 'Quinn Support',
    role: 'lead',
    password: 'witness-demo-quinn',
    expertise: [],
    projects: { 'support-desk': 'lead' },
  },
  {
    email: 'rio@witness.local',
    name: 'Rio Replies',
    role: 'reviewer',
    password: 'witness-demo-rio',
    expertise: [],
    projects: { 'support-desk': 'reviewer' },
  },
];
