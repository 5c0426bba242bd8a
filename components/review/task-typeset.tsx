import type { ReactNode } from 'react';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import { RichText } from '@/render/ui/rich-text';
import { CriterionText } from '@/render/ui/criterion-text';
import { collapsedText } from '../trajectories/collapsed-text';
import { TASK_INSTRUCTION_CHARS, TASK_INSTRUCTION_LINES } from './task-sizes';

/** The task's rich text as the server typeset it: the collapsed instruction, and each criterion by its key. */
export interface TaskTypeset {
  instruction: ReactNode;
  criteria: Record<string, ReactNode>;
}

/**
 * The task panel's rich text, typeset on the server (Markdown + KaTeX) for the page to hand to
 * TaskPanel: the browser hydrates it as it is instead of typesetting it again while the page
 * becomes interactive (issue 43 §5). What it typesets is what TaskPanel shows (the same cut).
 */
export function typesetTask(task: AssignmentView['task'], strip: boolean): TaskTypeset {
  const size = strip ? 'strip' : 'full';
  return {
    instruction: <RichText text={collapsedText(task.instruction, TASK_INSTRUCTION_LINES[size], TASK_INSTRUCTION_CHARS[size]).rich} />,
    criteria: Object.fromEntries(task.criteria.map((c) => [c.key, <CriterionText key={c.key} text={c.text} />])),
  };
}
