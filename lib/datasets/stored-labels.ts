import { z } from 'zod';
import { observationSchema, toolCallSchema, type Step } from '../formats/trajectory';
import { evidenceList } from '../review/evidence';

/**
 * JSON columns as the exporter reads them (lib/datasets/queries/dataset-items.ts): what does not
 * match its schema reads as empty, so one odd row never stops an export. Pure.
 */
const toolCalls = z.array(toolCallSchema).catch([]);
const observations = z.array(observationSchema).catch([]);
const evidence = evidenceList.catch([]);

export function storedToolCalls(json: unknown): Step['toolCalls'] {
  return toolCalls.parse(json);
}

export function storedObservations(json: unknown): Step['observations'] {
  return observations.parse(json);
}

export function storedEvidence(json: unknown): z.infer<typeof evidence> {
  return evidence.parse(json);
}
