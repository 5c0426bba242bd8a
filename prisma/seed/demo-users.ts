import type { Role } from '../../lib/auth/roles';

/** The demo logins `witness start` seeds and prints. Local demo only: change or disable (WITNESS_DEMO=0) in production. */
export const demoUsers: { email: string; name: string; role: Role; password: string; expertise: string[] }[] = [
  { email: 'admin@witness.local', name: 'Ada Admin', role: 'admin', password: 'witness-demo-admin', expertise: [] },
  { email: 'lead@witness.local', name: 'Lee Lead', role: 'lead', password: 'witness-demo-lead', expertise: ['software'] },
  { email: 'reviewer@witness.local', name: 'Rae Reviewer', role: 'reviewer', password: 'witness-demo-reviewer', expertise: ['software'] },
  { email: 'physicist@witness.local', name: 'Paz Physicist', role: 'reviewer', password: 'witness-demo-physics', expertise: ['physics'] },
  // reviewers whose reviews fill the demo campaigns (prisma/seed/seed-demo-campaigns.ts)
  { email: 'sol@witness.local', name: 'Sol Shell', role: 'reviewer', password: 'witness-demo-sol', expertise: ['software'] },
  { email: 'kit@witness.local', name: 'Kit Compiler', role: 'reviewer', password: 'witness-demo-kit', expertise: ['software'] },
  { email: 'noor@witness.local', name: 'Noor Newton', role: 'reviewer', password: 'witness-demo-noor', expertise: ['physics', 'software'] },
];
