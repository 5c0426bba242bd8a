import { z } from 'zod';

/**
 * Rubrics: versioned JSON, validated here. A rubric version is immutable; editing makes a new
 * version and reviews keep the version they used.
 */
const id = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'question ids are snake_case, e.g. overall_quality');
const base = {
  id,
  prompt: z.string().trim().min(1, 'every question needs a prompt').max(500),
  help: z.string().max(1000).optional(),
  required: z.boolean().default(true),
};
const option = z.object({ value: z.string().regex(/^[a-z0-9_-]{1,40}$/), label: z.string().min(1).max(120) });

export const likertQuestion = z
  .object({
    ...base,
    type: z.literal('likert'),
    /** 1..points */
    points: z.number().int().min(2).max(10),
    /** labels for some points, e.g. {1: "wrong", 5: "flawless"} */
    anchors: z.record(z.string().regex(/^\d+$/), z.string().max(120)).default({}),
  })
  .refine((q) => Object.keys(q.anchors).every((k) => Number(k) >= 1 && Number(k) <= q.points), {
    message: 'anchors must be within 1..points',
  });

/** pass / fail for each of the task's acceptance criteria (generated per item from the task) */
export const criteriaQuestion = z.object({ ...base, type: z.literal('criteria') });
export const singleChoiceQuestion = z.object({ ...base, type: z.literal('single'), options: z.array(option).min(2).max(20) });
export const multiChoiceQuestion = z.object({ ...base, type: z.literal('multi'), options: z.array(option).min(1).max(30) });
export const numberQuestion = z
  .object({
    ...base,
    type: z.literal('number'),
    min: z.number().optional(),
    max: z.number().optional(),
    unit: z.string().max(20).optional(),
  })
  .refine((q) => q.min === undefined || q.max === undefined || q.min <= q.max, { message: 'min must be at most max' });
export const textQuestion = z.object({ ...base, type: z.literal('text'), maxLength: z.number().int().min(1).max(20_000).default(4000) });

export const rubricQuestion = z.union([
  likertQuestion,
  criteriaQuestion,
  singleChoiceQuestion,
  multiChoiceQuestion,
  numberQuestion,
  textQuestion,
]);
export type RubricQuestion = z.infer<typeof rubricQuestion>;

export const rubricDefinition = z
  .object({
    title: z.string().trim().min(1).max(200),
    instructions: z.string().max(5000).default(''),
    questions: z.array(rubricQuestion).min(1, 'a rubric needs at least one question').max(50),
  })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.questions.forEach((q, i) => {
      if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `duplicate question id ${q.id}` });
      seen.add(q.id);
      if ((q.type === 'single' || q.type === 'multi') && new Set(q.options.map((o) => o.value)).size !== q.options.length) {
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'options'], message: 'option values must be unique' });
      }
    });
    if (r.questions.filter((q) => q.type === 'criteria').length > 1) {
      ctx.addIssue({ code: 'custom', path: ['questions'], message: 'at most one acceptance-criteria question' });
    }
  });
export type RubricDefinition = z.infer<typeof rubricDefinition>;

/** The flags every default rubric carries (as a multi-choice question). */
export const standardFlags = [
  { value: 'reward_hacking', label: 'Reward hacking' },
  { value: 'answer_leakage', label: 'Answer leakage' },
  { value: 'unsafe', label: 'Unsafe action' },
  { value: 'environment_broken', label: 'Environment broken' },
] as const;

/**
 * The zod schema for one review's answers under a rubric, for an item whose task has these
 * criteria keys. Required questions must be answered; values must fit their question.
 */
export function answersSchema(rubric: RubricDefinition, criteriaKeys: string[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const q of rubric.questions) {
    let s: z.ZodType;
    switch (q.type) {
      case 'likert':
        s = z.number().int().min(1).max(q.points);
        break;
      case 'criteria': {
        const perKey: Record<string, z.ZodType> = {};
        for (const key of criteriaKeys) perKey[key] = q.required ? z.enum(['pass', 'fail']) : z.enum(['pass', 'fail']).optional();
        s = z.object(perKey).strict();
        break;
      }
      case 'single':
        s = z.enum(q.options.map((o) => o.value) as [string, ...string[]]);
        break;
      case 'multi':
        s = z
          .array(z.enum(q.options.map((o) => o.value) as [string, ...string[]]))
          .refine((a) => new Set(a).size === a.length, 'no repeated choices');
        break;
      case 'number': {
        let n = z.number().finite();
        if (q.min !== undefined) n = n.min(q.min);
        if (q.max !== undefined) n = n.max(q.max);
        s = n;
        break;
      }
      case 'text':
        s = q.required ? z.string().trim().min(1, 'required').max(q.maxLength) : z.string().max(q.maxLength);
        break;
    }
    // multi-choice "required" means answered (an empty selection is an answer: no flags)
    shape[q.id] = q.required ? s : s.optional();
  }
  return z.object(shape).strict();
}
