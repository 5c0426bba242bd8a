import { describe, expect, it } from 'vitest';
import { defaultReviewRubric } from './default-rubric';
import { rubricDefinition } from './rubric';
import { rubricIssues } from './rubric-issues';

describe('rubricIssues', () => {
  it('accepts the default rubric (every campaign starts from it) and returns it parsed', () => {
    const checked = rubricIssues(defaultReviewRubric());
    expect(checked).toEqual({ ok: true, rubric: rubricDefinition.parse(defaultReviewRubric()) });
  });

  it('names the field of each problem, per question type, instead of a bare union failure', () => {
    const checked = rubricIssues({
      title: '',
      questions: [
        { id: 'Bad Id', type: 'text', prompt: 'p' },
        { id: 'scale', type: 'likert', prompt: 'How good?', points: 1 },
        { id: 'pick', type: 'single', prompt: 'Pick', options: [{ value: 'a', label: 'A' }] },
        { id: 'mystery', type: 'slider', prompt: 'p' },
        { id: 'n', type: 'number', prompt: 'n', min: 3, max: 1 },
      ],
    });
    expect(checked.ok).toBe(false);
    const issues = checked.ok ? [] : checked.issues;
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['title', 'questions.0.id', 'questions.1.points', 'questions.2.options', 'questions.3.type']),
    );
    expect(issues.find((i) => i.path === 'questions.3.type')!.message).toMatch(/likert, criteria, single, multi, number, text/);
    expect(issues.find((i) => i.path === 'questions.0.id')!.message).toMatch(/snake_case/);
    expect(issues.some((i) => i.path.startsWith('questions.4') && /min must be at most max/.test(i.message))).toBe(true);
  });

  it('reports rubric-level rules (duplicate ids, two criteria questions) at their path', () => {
    const checked = rubricIssues({
      title: 't',
      questions: [
        { id: 'a', type: 'criteria', prompt: 'c' },
        { id: 'a', type: 'criteria', prompt: 'c' },
      ],
    });
    expect(checked.ok ? [] : checked.issues).toEqual(
      expect.arrayContaining([
        { path: 'questions.1.id', message: 'duplicate question id a' },
        { path: 'questions', message: 'at most one acceptance-criteria question' },
      ]),
    );
  });
});
