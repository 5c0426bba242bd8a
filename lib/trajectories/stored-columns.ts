import { z } from 'zod';
import {
  observationSchema,
  stepSourceSchema,
  terminalRecordingSchema,
  toolCallSchema,
  usageSchema,
  type Observation,
  type StepSource,
  type TerminalRecording,
  type ToolCall,
  type Usage,
} from '../formats/trajectory';

/**
 * Pure: a stored trajectory's JSON columns read back (the queries' row mapping): what no longer
 * fits the current schema reads as empty (or null, 'unknown') instead of failing the page.
 */

const toolCalls = z.array(toolCallSchema).catch([]);
const observations = z.array(observationSchema).catch([]);
const usage = usageSchema.nullable().catch(null);
const components = z.record(z.string(), z.number()).catch({});
const dirBundle = z.object({ files: z.record(z.string(), z.string()) }).strict();

export const storedToolCalls = (value: unknown): ToolCall[] => toolCalls.parse(value);
export const storedObservations = (value: unknown): Observation[] => observations.parse(value);
export const storedUsage = (value: unknown): Usage | null => usage.parse(value ?? null);
export const storedComponents = (value: unknown): Record<string, number> => components.parse(value);

export function storedStepSource(value: unknown): StepSource | 'unknown' {
  const source = stepSourceSchema.safeParse(value);
  return source.success ? source.data : 'unknown';
}

/** A directory's raw source (`{"files": {path: text}}`): its files, or null when it is not one. */
export function storedDirBundle(value: unknown): Record<string, string> | null {
  const bundle = dirBundle.safeParse(value);
  return bundle.success ? bundle.data.files : null;
}

/** A terminal recording as stored (decompressed, parsed JSON), or null when it no longer fits the schema. */
export function storedTerminal(value: unknown): TerminalRecording | null {
  const terminal = terminalRecordingSchema.safeParse(value);
  return terminal.success ? terminal.data : null;
}
