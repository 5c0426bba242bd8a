import { z } from 'zod';
import type { Trajectory } from '../formats/trajectory';
import { editArgumentsDiff, findUnifiedDiffs, type ParsedDiffFile } from './diff';
import { actorOf } from './props';
import { formatCount } from './text';
import { toolCallCode } from './tool-call-code';

/**
 * The blind transcript: every step of a trajectory in full (message, reasoning, tool calls,
 * observations, diffs), shown beside the video on the review and compare pages. It is derived
 * with the same blind options as the video props (props.ts) and carries only what a card may
 * show: the actor is named as the card names it (never the agent when the policy is hidden),
 * and no usage, cost, model, call ids or run ids at all. Pure.
 */
export const transcriptStepSchema = z.object({
  index: z.number().int().nonnegative(),
  source: z.enum(['system', 'user', 'agent', 'tool', 'environment', 'hook']),
  actor: z.string(),
  text: z.string(),
  reasoning: z.string().nullable(),
  /** `arguments`: the call's arguments as text; `code`: the program it runs (python source, a shell command), when it runs one, then `arguments` holds only the others */
  toolCalls: z.array(
    z.object({
      name: z.string(),
      arguments: z.string(),
      code: z.object({ language: z.enum(['python', 'bash']).nullable(), text: z.string() }).nullable(),
    }),
  ),
  observations: z.array(z.object({ toolName: z.string().nullable(), content: z.string(), isError: z.boolean() })),
  /** unified diffs in the step (edit-tool arguments, diffs printed in tool calls or outputs), as diff text */
  diffs: z.array(z.object({ path: z.string().nullable(), text: z.string() })),
  timestamp: z.string().nullable(),
});
export type TranscriptStep = z.infer<typeof transcriptStepSchema>;

export interface TranscriptOptions {
  blind?: { hidePolicy: boolean; hideReward: boolean };
}

export function blindTranscript(trajectory: Trajectory, options: TranscriptOptions = {}): TranscriptStep[] {
  const hidePolicy = options.blind?.hidePolicy ?? false;
  // an output may come in a later step than its call (tool turns)
  const callNames = new Map(trajectory.steps.flatMap((s) => s.toolCalls.filter((c) => c.id !== null).map((c) => [c.id!, c.name] as const)));
  return trajectory.steps.map((step) => {
    const diffs: TranscriptStep['diffs'] = [];
    for (const call of step.toolCalls) {
      const edit = editArgumentsDiff(call.arguments);
      if (edit) diffs.push(diffText(edit));
      else if (typeof call.arguments === 'string') diffs.push(...findUnifiedDiffs(call.arguments).map(diffText));
    }
    for (const ob of step.observations) diffs.push(...findUnifiedDiffs(ob.content).map(diffText));
    return {
      index: step.index,
      source: step.source,
      actor: actorOf(step, trajectory, hidePolicy),
      text: clip(step.text),
      reasoning: step.reasoning,
      toolCalls: step.toolCalls.map((c) => {
        const code = toolCallCode(c.name, c.arguments);
        if (code === null) return { name: c.name, arguments: clip(argumentsText(c.arguments)), code: null };
        return { name: c.name, arguments: argumentsText(code.rest), code: { language: code.language, text: clip(code.code) } };
      }),
      observations: step.observations.map((ob) => ({
        toolName: ob.toolCallId !== null ? (callNames.get(ob.toolCallId) ?? null) : null,
        content: clip(ob.content),
        isError: ob.isError,
      })),
      diffs: diffs.slice(0, 20),
      timestamp: step.timestamp,
    };
  });
}

/** Past this a text is cut (the page would carry megabytes of one log); the cut says how much. */
const MAX_TEXT = 100_000;

function clip(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  return `${text.slice(0, MAX_TEXT)}\n… (${formatCount(text.length - MAX_TEXT)} more characters not shown)`;
}

function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return args;
  try {
    const s = JSON.stringify(args, null, 2) ?? String(args);
    return s === '{}' ? '' : s;
  } catch {
    return String(args);
  }
}

function diffText(file: ParsedDiffFile): { path: string | null; text: string } {
  const lines: string[] = [];
  for (const h of file.hunks) {
    lines.push(h.header);
    for (const l of h.lines) lines.push(`${l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}${l.text}`);
  }
  return { path: file.newPath ?? file.oldPath, text: lines.join('\n') };
}
