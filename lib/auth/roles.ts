import { z } from 'zod';

/** Roles and what each may reach. Pure rules: every page, action and API route checks them on the server. */
export const roles = ['admin', 'lead', 'reviewer'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** Areas of the studio; each page/action/route belongs to one. */
export const areas = ['admin', 'lead', 'review', 'studio'] as const;
export type Area = (typeof areas)[number];

const allowed: Record<Area, readonly Role[]> = {
  /** users, invites, API tokens, training sinks */
  admin: ['admin'],
  /** campaigns, rubrics, agreement, adjudication, datasets */
  lead: ['admin', 'lead'],
  /** the reviewer's queue and review pages (leads review too) */
  review: ['admin', 'lead', 'reviewer'],
  /** pages any signed-in user may see (their API tokens, who they are); trajectories are 'lead': they name the policy and the reward */
  studio: ['admin', 'lead', 'reviewer'],
};

export function canAccess(role: Role, area: Area): boolean {
  return allowed[area].includes(role);
}

export const roleHome: Record<Role, string> = {
  admin: '/admin',
  lead: '/lead',
  reviewer: '/review',
};

export const roleLabel: Record<Role, string> = {
  admin: 'Admin',
  lead: 'Team lead',
  reviewer: 'Reviewer',
};

/** Navigation entries shown to a role (the server still checks each page). */
export interface NavItem {
  href: string;
  label: string;
  area: Area;
}

const nav: NavItem[] = [
  { href: '/review', label: 'My queue', area: 'review' },
  { href: '/trajectories', label: 'Trajectories', area: 'lead' },
  { href: '/import', label: 'Import', area: 'lead' },
  { href: '/lead/campaigns', label: 'Campaigns', area: 'lead' },
  { href: '/lead/agreement', label: 'Agreement', area: 'lead' },
  { href: '/lead/datasets', label: 'Datasets', area: 'lead' },
  { href: '/insight', label: 'Insight', area: 'lead' },
  { href: '/training', label: 'Training', area: 'lead' },
  { href: '/admin', label: 'Admin', area: 'admin' },
  { href: '/admin/sinks', label: 'Training sinks', area: 'admin' },
];

export function navFor(role: Role): NavItem[] {
  return nav.filter((item) => canAccess(role, item.area));
}

export const expertiseTagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'expertise tags are lowercase words or dashes, e.g. physics, formal-methods');
