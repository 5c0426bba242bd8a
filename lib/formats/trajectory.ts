import { z } from 'zod';

/**
 * The normalised trajectory: what every importer in lib/formats/ produces and what
 * lib/db/ stores. Pure data, validated with zod; types come from z.infer.
 */

export const formatNames = [
  'harbor',
  'terminal-bench',
  'atif',
  'asciinema',
  'inspect',
  'swe-agent',
  'mini-swe-agent',
  'tau-bench',
  'tau2',
  'openai',
  'anthropic',
  'claude-code',
  'codex',
  'cline',
  'openhands',
  'aider',
] as const;
export const formatNameSchema = z.enum(formatNames);
export type FormatName = z.infer<typeof formatNameSchema>;

export const splitSchema = z.enum(['train', 'eval']);
export type Split = z.infer<typeof splitSchema>;

/**
 * Who acted in a step. `environment` = the harness / terminal, `tool` = a tool result turn, `hook` =
 * feedback a harness hook gave the agent (Claude Code's "Stop hook feedback"): why the agent went on.
 */
export const stepSourceSchema = z.enum(['system', 'user', 'agent', 'tool', 'environment', 'hook']);
export type StepSource = z.infer<typeof stepSourceSchema>;

export const toolCallSchema = z.object({
  /** the source's call id, used to pair observations with calls */
  id: z.string().nullable(),
  name: z.string(),
  /** parsed arguments (an object when the source gave JSON; a string kept as-is otherwise) */
  arguments: z.unknown(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const observationSchema = z.object({
  /** the tool call this answers, when the source links them */
  toolCallId: z.string().nullable(),
  content: z.string(),
  isError: z.boolean(),
});
export type Observation = z.infer<typeof observationSchema>;

export const usageSchema = z.object({
  promptTokens: z.number().nonnegative().nullable(),
  completionTokens: z.number().nonnegative().nullable(),
  costUsd: z.number().nonnegative().nullable(),
});
export type Usage = z.infer<typeof usageSchema>;

export const stepSchema = z.object({
  /** 0-based position in the trajectory */
  index: z.number().int().nonnegative(),
  source: stepSourceSchema,
  /** the message text (may be empty when the step is only tool calls) */
  text: z.string(),
  /** the agent's reasoning / thinking, when the source has it */
  reasoning: z.string().nullable(),
  toolCalls: z.array(toolCallSchema),
  observations: z.array(observationSchema),
  /** ISO-8601 wall-clock time when the source has it */
  timestamp: z.string().nullable(),
  /** seconds from the start of the terminal recording where this step begins, when known */
  castTime: z.number().nonnegative().nullable(),
  usage: usageSchema.nullable(),
});
export type Step = z.infer<typeof stepSchema>;

export const criterionSchema = z.object({
  /** stable key within the task (slug of the text, or the verifier test name) */
  key: z.string().min(1),
  text: z.string().min(1),
  /** where it came from: task metadata, a verifier test name, or typed in the UI */
  origin: z.enum(['task', 'verifier', 'manual']),
  /** the verifier's verdict for this criterion when the source has one */
  verdict: z.boolean().nullable(),
});
export type Criterion = z.infer<typeof criterionSchema>;

export const verifierSchema = z.object({
  /** the scalar reward (e.g. 0/1 from reward.txt, Inspect's main score as a number) */
  reward: z.number().nullable(),
  /** named components (reward.json keys, tau2 reward breakdown, per-test results as 0/1) */
  components: z.record(z.string(), z.number()),
});
export type Verifier = z.infer<typeof verifierSchema>;

export const judgeScoreSchema = z.object({
  /** the judge's name (scorer name, judge model) */
  judge: z.string().min(1),
  score: z.number().nullable(),
  /** a categorical verdict when the judge gave one (e.g. "C"/"I", "pass") */
  label: z.string().nullable(),
  explanation: z.string().nullable(),
});
export type JudgeScore = z.infer<typeof judgeScoreSchema>;

/** asciinema event codes: output, input, resize, marker, exit (v3) */
export const castEventCodeSchema = z.enum(['o', 'i', 'r', 'm', 'x']);
/** [seconds since start (absolute, even for v3 casts), code, data] */
export const castEventSchema = z.tuple([z.number().nonnegative(), castEventCodeSchema, z.string()]);
export type CastEvent = z.infer<typeof castEventSchema>;

export const terminalRecordingSchema = z.object({
  version: z.union([z.literal(2), z.literal(3)]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  title: z.string().nullable(),
  /** sorted by time */
  events: z.array(castEventSchema),
});
export type TerminalRecording = z.infer<typeof terminalRecordingSchema>;

export const taskRefSchema = z.object({
  /** stable task name within the project (e.g. Terminal-Bench task id, Inspect sample id) */
  name: z.string().min(1),
  instruction: z.string(),
  acceptanceCriteria: z.array(criterionSchema),
  environment: z.string().nullable(),
  split: splitSchema.nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type TaskRef = z.infer<typeof taskRefSchema>;

export const policyRefSchema = z.object({
  model: z.string().nullable(),
  checkpoint: z.string().nullable(),
  /** the agent scaffold (terminus-2, claude-code, swe-agent, ...) */
  agent: z.string().nullable(),
});
export type PolicyRef = z.infer<typeof policyRefSchema>;

export const trajectorySchema = z.object({
  format: formatNameSchema,
  /** the source's own id for this run (trial name, sample id + epoch, instance id) */
  externalId: z.string().nullable(),
  task: taskRefSchema,
  policy: policyRefSchema,
  steps: z.array(stepSchema),
  verifier: verifierSchema.nullable(),
  judgeScores: z.array(judgeScoreSchema),
  usage: usageSchema.nullable(),
  terminal: terminalRecordingSchema.nullable(),
  /** the final patch / answer when the source has one (SWE-agent submission, Inspect output) */
  submission: z.string().nullable(),
  /** exit status / termination reason (SWE-agent info.exit_status, tau2 termination_reason) */
  exitStatus: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Trajectory = z.infer<typeof trajectorySchema>;
