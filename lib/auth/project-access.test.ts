import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { hasProjectRole, projectAccess, requireProjectRole, roleInProject, visibleProjectIds } from './project-access';

const memberships = [
  { projectId: 'physics', role: 'lead' as const },
  { projectId: 'software', role: 'reviewer' as const },
];

function codeOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
}

describe('project access', () => {
  it('gives an admin every project as its lead, and a narrowed admin token only its project', () => {
    const admin = projectAccess('admin', []);
    expect(roleInProject(admin, 'anything')).toBe('lead');
    expect(visibleProjectIds(admin, 'lead')).toBeNull();
    const narrowed = projectAccess('admin', [], 'physics');
    expect(roleInProject(narrowed, 'physics')).toBe('lead');
    expect(roleInProject(narrowed, 'software')).toBeNull();
    expect(visibleProjectIds(narrowed, 'reviewer')).toEqual(['physics']);
  });

  it('gives a member their role in their projects only; leads review too', () => {
    const lead = projectAccess('lead', memberships);
    expect(roleInProject(lead, 'physics')).toBe('lead');
    expect(roleInProject(lead, 'software')).toBe('reviewer');
    expect(roleInProject(lead, 'elsewhere')).toBeNull();
    expect(visibleProjectIds(lead, 'lead')).toEqual(['physics']);
    expect(visibleProjectIds(lead, 'reviewer')).toEqual(['physics', 'software']);
    expect(hasProjectRole(lead, 'physics', 'reviewer')).toBe(true);
    expect(hasProjectRole(lead, 'software', 'lead')).toBe(false);
  });

  it('lists nothing, not everything, for a user without memberships', () => {
    expect(visibleProjectIds(projectAccess('reviewer', []), 'reviewer')).toEqual([]);
    expect(visibleProjectIds(projectAccess('lead', []), 'lead')).toEqual([]);
  });

  it('narrows a token to one project of its user; a project the user is not in stays out of reach', () => {
    const token = projectAccess('lead', memberships, 'software');
    expect(roleInProject(token, 'software')).toBe('reviewer');
    expect(roleInProject(token, 'physics')).toBeNull();
    expect(visibleProjectIds(token, 'reviewer')).toEqual(['software']);
    expect(visibleProjectIds(projectAccess('lead', memberships, 'elsewhere'), 'reviewer')).toEqual([]);
  });

  it('answers NOT_FOUND for a project out of reach (or none), FORBIDDEN for too low a role in one', () => {
    const lead = projectAccess('lead', memberships);
    expect(codeOf(() => requireProjectRole(lead, 'physics', 'lead', 'campaign'))).toBeNull();
    expect(codeOf(() => requireProjectRole(lead, 'software', 'lead', 'campaign'))).toBe('FORBIDDEN');
    expect(codeOf(() => requireProjectRole(lead, 'software', 'reviewer', 'campaign'))).toBeNull();
    expect(codeOf(() => requireProjectRole(lead, 'elsewhere', 'reviewer', 'campaign'))).toBe('NOT_FOUND');
    expect(codeOf(() => requireProjectRole(lead, null, 'reviewer', 'campaign'))).toBe('NOT_FOUND');
    expect(() => requireProjectRole(lead, 'elsewhere', 'reviewer', 'campaign')).toThrow('No such campaign');
  });
});
