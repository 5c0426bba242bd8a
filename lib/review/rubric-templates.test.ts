import { describe, expect, it } from 'vitest';
import { rubricIssues } from './rubric-issues';
import { rubricTemplates, templateFor } from './rubric-templates';

describe('rubric templates per domain', () => {
  const templates = rubricTemplates();

  it('offers the standard rubric first, and a physics one whose checks are algebra, units, limits and a numerical check', () => {
    expect(templates.map((t) => t.id)).toEqual(['standard', 'physics', 'software']);
    const physics = templates.find((t) => t.id === 'physics')!;
    const checks = physics.definition.questions.filter((q) => q.type === 'single');
    expect(checks.map((q) => q.id)).toEqual(['algebra', 'units', 'limits', 'numerical_check']);
    for (const q of checks) {
      // one clear question each, answered pass / fail / can't tell
      expect(q.prompt).toMatch(/\?$/);
      expect(q.type === 'single' && q.options.map((o) => o.value)).toEqual(['pass', 'fail', 'cant_tell']);
      expect(q.required).toBe(true);
    }
    // the task's own criteria, the overall rating, the flags and the comment stay
    expect(physics.definition.questions.map((q) => q.type)).toEqual(expect.arrayContaining(['criteria', 'likert', 'multi', 'text']));
  });

  it('every template is a rubric the form and the server accept as it is', () => {
    for (const t of templates) expect(rubricIssues(t.definition)).toMatchObject({ ok: true });
  });

  it('suggests the template that fits a campaign by its environment or required expertise', () => {
    expect(templateFor(templates, ['physics-derivations'])?.id).toBe('physics');
    expect(templateFor(templates, ['', 'physics'])?.id).toBe('physics');
    expect(templateFor(templates, ['repo-bugfix'])?.id).toBe('software');
    expect(templateFor(templates, ['support-chat'])).toBeNull();
    expect(templateFor(templates, [])).toBeNull();
  });
});
