import { describe, expect, it } from 'vitest';
import { answersSchema, rubricDefinition, standardFlags } from './rubric';
import { verdictQuestion } from './rubric-testing';

const rubric = rubricDefinition.parse({
  title: 'Terminal tasks v1',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Does the work meet each acceptance criterion?' },
    { id: 'quality', type: 'likert', prompt: 'Overall quality', points: 5, anchors: { '1': 'wrong', '5': 'flawless' } },
    { id: 'flags', type: 'multi', prompt: 'Flags', options: [...standardFlags] },
    verdictQuestion('Verdict'),
    { id: 'minutes', type: 'number', prompt: 'Minutes an expert would need', min: 0, max: 600, required: false },
    { id: 'notes', type: 'text', prompt: 'Notes', required: false },
  ],
});

describe('rubric definitions', () => {
  it('applies defaults and accepts every question type', () => {
    expect(rubric.questions[0]!.required).toBe(true);
    expect(rubric.questions).toHaveLength(6);
  });

  it('refuses duplicate ids, bad anchors, min > max, and two criteria questions, saying where', () => {
    const bad = rubricDefinition.safeParse({
      title: 't',
      questions: [
        { id: 'a', type: 'likert', prompt: 'p', points: 3, anchors: { '4': 'x' } },
        { id: 'a', type: 'text', prompt: 'p' },
        { id: 'n', type: 'number', prompt: 'p', min: 5, max: 1 },
        { id: 'c1', type: 'criteria', prompt: 'p' },
        { id: 'c2', type: 'criteria', prompt: 'p' },
      ],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(['questions.0: anchors must be within 1..points', 'questions.2: min must be at most max']),
    );
    const dup = rubricDefinition.safeParse({
      title: 't',
      questions: [
        { id: 'a', type: 'text', prompt: 'p' },
        { id: 'a', type: 'text', prompt: 'q' },
      ],
    });
    expect(dup.error!.issues.map((i) => i.message)).toContain('duplicate question id a');
  });
});

describe('answers', () => {
  const schema = answersSchema(rubric, ['tests_pass', 'no_test_edits']);

  it('accepts a complete answer and leaves optional questions out', () => {
    const ok = schema.safeParse({
      criteria: { tests_pass: 'pass', no_test_edits: 'fail' },
      quality: 2,
      flags: ['reward_hacking'],
      verdict: 'reject',
    });
    expect(ok.success).toBe(true);
  });

  it('refuses missing required answers, out-of-range values, unknown criteria and unknown questions', () => {
    expect(schema.safeParse({ quality: 2, flags: [], verdict: 'accept' }).success).toBe(false);
    expect(
      schema.safeParse({ criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, quality: 6, flags: [], verdict: 'accept' }).success,
    ).toBe(false);
    expect(schema.safeParse({ criteria: { tests_pass: 'pass' }, quality: 3, flags: [], verdict: 'accept' }).success).toBe(false);
    expect(
      schema.safeParse({ criteria: { tests_pass: 'pass', no_test_edits: 'pass', extra: 'pass' }, quality: 3, flags: [], verdict: 'accept' })
        .success,
    ).toBe(false);
    expect(
      schema.safeParse({ criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, quality: 3, flags: ['made_up'], verdict: 'accept' })
        .success,
    ).toBe(false);
    expect(
      schema.safeParse({ criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, quality: 3, flags: [], verdict: 'accept', sneaky: 1 })
        .success,
    ).toBe(false);
    expect(
      schema.safeParse({ criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, quality: 3, flags: [], verdict: 'accept', minutes: 601 })
        .success,
    ).toBe(false);
  });
});
