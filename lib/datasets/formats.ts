import { z } from 'zod';
import { AppError } from '../errors';
import { type ChatTool, uniformMessages } from './chat-messages';
import type { DatasetRow, Provenance, RowKind } from './derive';

/**
 * One JSONL writer per trainer format (keys in a fixed order; `witness` / `metadata` carry the
 * provenance). Each is checked by the trainer that reads it (`npm run test:trainers`:
 * scripts/trainers/test_trl.py runs TRL on the seeded demo's exports, check_loaders.py runs
 * OpenRLHF's and slime's own loaders):
 *
 * - trl-dpo: DPOTrainer, conversational preference with explicit prompt:
 *   {"prompt": [messages], "chosen": [messages], "rejected": [messages], "tools"?: [...]};
 *   assistant tool calls as {"tool_calls": [{"type": "function", "function": {name, arguments}}]},
 *   tool results as {"role": "tool", "name", "content"} (transformers chat-template convention).
 * - trl-kto: KTOTrainer, unpaired preference: {"prompt", "completion", "label": bool, "tools"?}.
 * - trl-reward: RewardTrainer, preference with implicit prompt: {"chosen", "rejected"} full
 *   conversations, plus the optional "margin" column the trainer adds to its loss.
 * - trl-sft: SFTTrainer, conversational language modelling: {"messages", "tools"?}.
 * - trl-prm: PRMTrainer (trl.experimental.prm), stepwise supervision: {"prompt": str,
 *   "completions": [str], "labels": [bool]}; train with step_separator=PRM_STEP_SEPARATOR.
 * - openrlhf: RewardDataset (train_rm.py and train_dpo.py with `--data.prompt_key prompt
 *   --data.chosen_key chosen --data.rejected_key rejected --data.apply_chat_template`):
 *   {"prompt", "chosen", "rejected", "margin"} (chosen/rejected are the responses; `margin` is
 *   read with --model.margin_loss_enable). Every message has the same keys {role, content,
 *   tool_calls, name} (null where none): datasets 5 types mixed shapes as JSON, and OpenRLHF's
 *   map, writing strings back under the same names, then reads them as lists.
 * - slime: RL prompt data (`--input-key prompt --label-key label --metadata-key metadata
 *   --tool-key tools --apply-chat-template`): {"prompt": [messages], "label", "metadata", "tools"?};
 *   label is what slime's Sample.label is, the task's reference answer (null when unknown); the
 *   human score, spread, verdict, reviewed completion and provenance are in metadata, for a
 *   custom reward function (examples/slime_reward.py, --custom-rm-path).
 *
 * `tools` is left out of rows with no tool calls: `tools: []` makes Llama-3.1-style templates
 * add tool-calling boilerplate (slime passes the column to the template as it is).
 */
export const datasetFormats = ['trl-dpo', 'trl-kto', 'trl-reward', 'trl-sft', 'trl-prm', 'openrlhf', 'slime'] as const;
export const datasetFormatSchema = z.enum(datasetFormats);
export type DatasetFormat = z.infer<typeof datasetFormatSchema>;

export const formatKind: Record<DatasetFormat, RowKind> = {
  'trl-dpo': 'preference',
  'trl-kto': 'unpaired',
  'trl-reward': 'preference',
  'trl-sft': 'sft',
  'trl-prm': 'steps',
  openrlhf: 'preference',
  slime: 'reward',
};

export const formatLabel: Record<DatasetFormat, string> = {
  'trl-dpo': 'TRL DPOTrainer (prompt / chosen / rejected, tools)',
  'trl-kto': 'TRL KTOTrainer (prompt / completion / label)',
  'trl-reward': 'TRL RewardTrainer (chosen / rejected, margin)',
  'trl-sft': 'TRL SFTTrainer (messages, tools)',
  'trl-prm': 'TRL PRMTrainer (prompt / completions / labels)',
  openrlhf: 'OpenRLHF reward model and DPO (prompt / chosen / rejected, margin)',
  slime: 'slime / Miles RL prompts (prompt, label = reference answer, metadata, tools)',
};

function wrongKind(format: DatasetFormat, row: DatasetRow): never {
  throw new AppError('INTERNAL', `format ${format} needs ${formatKind[format]} rows, got ${row.kind}`);
}

function witness(p: Provenance, purpose: 'training' | 'evaluation') {
  return { ...p, purpose };
}

/** The `tools` key only when the row called tools. */
function toolsOf(tools: readonly ChatTool[]): { tools?: ChatTool[] } {
  return tools.length > 0 ? { tools: [...tools] } : {};
}

/** The row as the trainer's JSON object (key order fixed here). */
export function formatRow(format: DatasetFormat, row: DatasetRow): Record<string, unknown> {
  const purpose = row.provenance.split === 'eval' ? 'evaluation' : 'training';
  switch (format) {
    case 'trl-dpo':
      if (row.kind !== 'preference') wrongKind(format, row);
      return {
        prompt: row.prompt,
        chosen: row.chosen,
        rejected: row.rejected,
        ...toolsOf(row.tools),
        witness: witness(row.provenance, purpose),
      };
    case 'trl-reward':
      if (row.kind !== 'preference') wrongKind(format, row);
      return {
        chosen: [...row.prompt, ...row.chosen],
        rejected: [...row.prompt, ...row.rejected],
        margin: row.margin,
        ...toolsOf(row.tools),
        witness: witness(row.provenance, purpose),
      };
    case 'openrlhf':
      if (row.kind !== 'preference') wrongKind(format, row);
      return {
        prompt: uniformMessages(row.prompt),
        chosen: uniformMessages(row.chosen),
        rejected: uniformMessages(row.rejected),
        margin: row.margin,
        witness: witness(row.provenance, purpose),
      };
    case 'trl-kto':
      if (row.kind !== 'unpaired') wrongKind(format, row);
      return {
        prompt: row.prompt,
        completion: row.completion,
        label: row.label,
        ...toolsOf(row.tools),
        witness: witness(row.provenance, purpose),
      };
    case 'trl-sft':
      if (row.kind !== 'sft') wrongKind(format, row);
      return { messages: row.messages, ...toolsOf(row.tools), witness: witness(row.provenance, purpose) };
    case 'trl-prm':
      if (row.kind !== 'steps') wrongKind(format, row);
      return { prompt: row.prompt, completions: row.completions, labels: row.labels, witness: witness(row.provenance, purpose) };
    case 'slime':
      if (row.kind !== 'reward') wrongKind(format, row);
      return {
        prompt: row.prompt,
        label: row.referenceAnswer,
        metadata: {
          score: row.score,
          spread: row.spread,
          accepted: row.accepted,
          reviewers: row.provenance.reviewers,
          completion: row.completion,
          witness: witness(row.provenance, purpose),
        },
        ...toolsOf(row.tools),
      };
  }
}

/** One JSONL line (with its newline). */
export function jsonlLine(format: DatasetFormat, row: DatasetRow): string {
  return JSON.stringify(formatRow(format, row)) + '\n';
}
