/**
 * How much of the instruction the task panel shows while collapsed: the review pages' strip, and
 * the full panel. Apart from task-typeset.tsx (server: it imports the typesetting code) so that
 * the task panel (browser) reads them without bundling that code.
 */
export const TASK_INSTRUCTION_LINES = { strip: 2, full: 6 } as const;
export const TASK_INSTRUCTION_CHARS = { strip: 300, full: 800 } as const;
