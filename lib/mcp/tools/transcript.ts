import { z } from 'zod';
import { AppError } from '../../errors';
import { recordAgentReading } from '../../review/record-agent-reading';
import type { TranscriptStep } from '../../video/transcript';
import { viewBlindTranscript } from '../../video/view-blind-transcript';
import { defineTool } from '../mcp-tool';
import { clip, cursorInput, makeCursor, readCursor } from '../paging';

/** An answer of read_transcript stays under this many bytes of JSON (the MCP answers' bound is 16 KB). */
export const TRANSCRIPT_ANSWER_BUDGET = 14_000;

export const blindReadInput = {
  trajectoryId: z.string().min(1).max(64).describe('the trajectory (from a claim: one of its trajectoryIds)'),
  claimId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("your agent claim (claim_next_item): reads under its campaign's blind settings and are recorded on the claim"),
  campaignId: z.string().min(1).max(64).optional().describe("leads: read as this campaign's reviewers do (its blind settings and pacing)"),
};

const stepCursor = z.object({ s: z.number().int().min(0) });

function summaryOf(step: TranscriptStep) {
  return {
    index: step.index,
    source: step.source,
    actor: step.actor,
    text: clip(step.text.replace(/\s+/g, ' ').trim(), 160),
    ...(step.toolCalls.length ? { tools: step.toolCalls.map((c) => c.name) } : {}),
    ...(step.observations.some((o) => o.isError) ? { error: true } : {}),
    ...(step.diffs.length ? { diffs: step.diffs.length } : {}),
  };
}

function fullOf(step: TranscriptStep, scale: number) {
  const n = (chars: number) => Math.max(80, Math.floor(chars * scale));
  return {
    index: step.index,
    source: step.source,
    actor: step.actor,
    text: clip(step.text, n(3000)),
    reasoning: clip(step.reasoning, n(1500)),
    toolCalls: step.toolCalls.slice(0, 8).map((c) => ({ name: c.name, arguments: clip(c.arguments, n(1500)) })),
    observations: step.observations
      .slice(0, 8)
      .map((o) => ({ toolName: o.toolName, content: clip(o.content, n(2500)), isError: o.isError })),
    diffs: step.diffs.slice(0, 4).map((d) => ({ path: d.path, text: clip(d.text, n(1500)) })),
    timestamp: step.timestamp,
  };
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

export const readTranscriptTool = defineTool({
  name: 'read_transcript',
  title: "Read a trajectory's blind transcript",
  description:
    "A page of a trajectory's blind transcript, as the review page shows it (the policy and reward hidden as the campaign's blind settings say). detail 'summary' (default): one line per step; 'full': each step's message, reasoning, tool calls, outputs and diffs, long texts clipped. A page stops at `limit` steps or about 14 KB, whichever comes first: pass nextCursor as cursor for the next page. With a claimId, every page read is recorded on your claim.",
  input: z.object({
    ...blindReadInput,
    fromStep: z.number().int().min(0).default(0).describe('the first step to read (0-based)'),
    limit: z.number().int().min(1).max(50).default(20).describe('at most this many steps'),
    detail: z.enum(['summary', 'full']).default('summary'),
    cursor: cursorInput,
  }),
  kind: 'read',
  area: 'review',
  async run(input, { user }) {
    const { transcript, blind } = await viewBlindTranscript(user, input);
    const from = readCursor(input.cursor, stepCursor)?.s ?? input.fromStep;
    const total = transcript.length;
    if (from >= total && total > 0)
      throw new AppError('BAD_INPUT', `/fromStep: step ${from} is past the last step (the trajectory has ${total}, from 0)`, {
        details: { field: '/fromStep' },
      });
    const steps: unknown[] = [];
    let used = 600; // the answer's frame (ids, counts, cursor)
    let at = from;
    while (at < total && steps.length < input.limit) {
      const step = transcript[at]!;
      let shaped: unknown = input.detail === 'summary' ? summaryOf(step) : fullOf(step, 1);
      let size = bytes(shaped);
      // a step too large for an answer of its own is clipped harder
      for (let scale = 0.5; steps.length === 0 && used + size > TRANSCRIPT_ANSWER_BUDGET && scale > 0.01; scale /= 2) {
        shaped = fullOf(step, scale);
        size = bytes(shaped);
      }
      if (used + size > TRANSCRIPT_ANSWER_BUDGET && steps.length > 0) break;
      steps.push(shaped);
      used += size;
      at++;
    }
    if (input.claimId !== undefined && steps.length > 0)
      await recordAgentReading(user, { claimId: input.claimId, trajectoryId: input.trajectoryId, steps: [from, at - 1] });
    return {
      trajectoryId: input.trajectoryId,
      totalSteps: total,
      from,
      to: at - 1,
      detail: input.detail,
      blind,
      steps,
      nextCursor: at < total ? makeCursor({ s: at }) : null,
    };
  },
});
