import {
  criteriaQuestion,
  likertQuestion,
  multiChoiceQuestion,
  numberQuestion,
  rubricDefinition,
  singleChoiceQuestion,
  textQuestion,
  type RubricDefinition,
} from './rubric';

export interface RubricIssue {
  /** dotted path inside the definition, e.g. `questions.2.prompt` ('' = the rubric itself) */
  path: string;
  message: string;
}

const byType = {
  likert: likertQuestion,
  criteria: criteriaQuestion,
  single: singleChoiceQuestion,
  multi: multiChoiceQuestion,
  number: numberQuestion,
  text: textQuestion,
} as const;
const types = Object.keys(byType).join(', ');

/**
 * Every problem of a rubric definition with the field it belongs to (for errors shown next to
 * the field, in the form and in API answers). A question of unknown type says which types exist;
 * a question whose type is known is checked against that type alone, so its message names the
 * real field instead of "no union member matched".
 */
export function rubricIssues(definition: unknown): { ok: true; rubric: RubricDefinition } | { ok: false; issues: RubricIssue[] } {
  const parsed = rubricDefinition.safeParse(definition);
  if (parsed.success) return { ok: true, rubric: parsed.data };
  const issues: RubricIssue[] = [];
  // eslint-disable-next-line no-restricted-syntax -- every issue, listed for the rubric editor (not one AppError)
  for (const issue of parsed.error.issues) {
    const [head, index] = issue.path;
    if (issue.code === 'invalid_union' && head === 'questions' && typeof index === 'number') {
      const question = (definition as { questions?: unknown[] }).questions?.[index] as { type?: unknown } | undefined;
      const schema = typeof question?.type === 'string' ? byType[question.type as keyof typeof byType] : undefined;
      if (!schema) {
        issues.push({ path: `questions.${index}.type`, message: `unknown question type; use one of ${types}` });
        continue;
      }
      const own = schema.safeParse(question);
      if (!own.success) {
        // eslint-disable-next-line no-restricted-syntax -- every issue, listed for the rubric editor (not one AppError)
        for (const sub of own.error.issues) issues.push({ path: ['questions', index, ...sub.path].join('.'), message: sub.message });
        continue;
      }
    }
    issues.push({ path: issue.path.join('.'), message: issue.message });
  }
  return { ok: false, issues };
}
