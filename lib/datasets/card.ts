import type { AgreementReport } from '../stats/compute-agreement';
import { MIN_REVIEWS_FOR_DAWID_SKENE } from './consensus';
import { PRM_STEP_SEPARATOR } from './chat-messages';
import type { DeriveOptions, Excluded } from './derive';
import { type DatasetFormat, formatKind, formatLabel } from './formats';
import type { ExportPurpose } from './guard';

/** What the dataset card reports (all known once the rows are written). */
export interface CardInput {
  format: DatasetFormat;
  purpose: ExportPurpose;
  scope: {
    project: string;
    campaigns: Array<{ id: string; name: string; mode: string; rubricVersion: number }>;
    split: 'train' | 'eval' | null;
  };
  options: DeriveOptions;
  rows: number;
  items: number;
  sha256: string;
  excluded: Excluded;
  /** label -> rows (e.g. chosen side, pass/fail, score bucket) */
  labels: Record<string, number>;
  adjudicatedRows: number;
  /** categorical labels per review, across the exported campaigns */
  agreement: AgreementReport | null;
}

const rules: Record<string, string> = {
  preference:
    'Pairwise items: the consensus outcome (a / b / tie / both bad) picks chosen and rejected; ties and "both bad" make no pair, nor do two identical conversations (`identical`). margin = strength x agreement, strength = mean |preference| / 2 of the reviewers who agree (adjudicated: |preference| / 2). Single items of the same task: two consensus scores (0..1) at least `scoreGap` apart make a pair, higher score chosen, margin = the gap. The prompt is the messages both sides share (at least the user turn), else the task instruction alone.',
  unpaired: 'One row per single item with a consensus pass/fail verdict (label true = pass).',
  reward:
    "One row per single item with a consensus score: metadata.score = mean normalised rubric score (0..1), with its spread (population SD) and reviewer count; label = the task's reference answer (task metadata referenceAnswer), null when none.",
  sft: 'One row per trajectory whose consensus verdict is pass: the whole conversation with tool calls.',
  steps:
    'Agent steps up to the first step a reviewer flagged wrong (evidence note with wrongStep): earlier steps true, the flagged step false, later steps left out. Without flags, an accepted trajectory labels every step true; others give no row.',
};

/** How the trainer reads the file: its own flags and settings (checked by `npm run test:trainers`). */
const usage: Record<DatasetFormat, string[]> = {
  'trl-dpo': [
    '`DPOTrainer(model, args=DPOConfig(...), train_dataset=load_dataset("json", data_files=FILE, split="train"), processing_class=tokenizer)`; `tools` (present only on rows with tool calls) is passed to the chat template.',
  ],
  'trl-kto': ['`KTOTrainer(..., train_dataset=load_dataset("json", data_files=FILE, split="train"))`; label true = desirable.'],
  'trl-reward': [
    '`RewardTrainer(..., train_dataset=...)`; `margin` is added to the loss. Set `RewardConfig(max_length=...)` above the longest pair: longer pairs are dropped.',
  ],
  'trl-sft': [
    '`SFTTrainer(..., train_dataset=...)`; with `assistant_only_loss=True` the chat template needs `{% generation %}` marks (TRL ships training templates).',
  ],
  'trl-prm': [
    `\`PRMTrainer(..., args=PRMConfig(step_separator=${JSON.stringify(PRM_STEP_SEPARATOR)}), train_dataset=...)\` (from \`trl.experimental.prm\`): no step contains the separator (a message and its tool calls are joined by one newline, blank lines folded).`,
  ],
  openrlhf: [
    'Reward model: `python -m openrlhf.cli.train_rm --data.dataset FILE --data.prompt_key prompt --data.chosen_key chosen --data.rejected_key rejected --data.apply_chat_template --model.margin_loss_enable ...`',
    'DPO: `python -m openrlhf.cli.train_dpo --data.dataset FILE --data.prompt_key prompt --data.chosen_key chosen --data.rejected_key rejected --data.apply_chat_template ...`',
    'Without `--data.prompt_key prompt` the user prompt is dropped (chosen/rejected hold the responses only). Every message has the keys role, content, tool_calls, name (null where none).',
  ],
  slime: [
    '`--prompt-data FILE --input-key prompt --label-key label --metadata-key metadata --tool-key tools --apply-chat-template` (slime defaults to `--input-key input` and no label).',
    "`label` is the task's reference answer (null when none is known), as slime's built-in reward types expect; the reviewers' score of the reviewed trajectory is `metadata.score` (0..1, with `spread`, `accepted`, `reviewers`, the reviewed `completion` and `witness` provenance).",
    'A reward function that uses both: `--custom-rm-path slime_reward.witness_reward` with examples/slime_reward.py on PYTHONPATH.',
  ],
};

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : 'undefined';
}

function table(record: Record<string, number>): string {
  const keys = Object.keys(record).sort();
  if (keys.length === 0) return '(none)\n';
  return ['| | count |', '|---|---:|', ...keys.map((k) => `| ${k} | ${record[k]} |`)].join('\n') + '\n';
}

/** The dataset card (Markdown). No timestamps: the same export gives the same card. */
export function datasetCard(c: CardInput): string {
  const evaluation = c.purpose === 'evaluation';
  const lines: string[] = [];
  lines.push(`# ${evaluation ? 'EVALUATION SET' : 'Training dataset'}: ${c.format}`);
  lines.push('');
  if (evaluation) {
    lines.push(
      '> **Evaluation set, not for training.** Every row comes from an eval-split task (measurement). Training on it would contaminate the evaluation.',
    );
    lines.push('');
  }
  lines.push(`- Format: ${formatLabel[c.format]}, JSONL, one row per line (row kind: ${formatKind[c.format]})`);
  lines.push(`- Purpose: ${c.purpose}; split: ${c.scope.split ?? 'train (no split asked; the guard refused none)'}`);
  lines.push(`- Rows: ${c.rows} from ${c.items} campaign item(s); adjudicated rows: ${c.adjudicatedRows}`);
  lines.push(`- sha256 of the data file: \`${c.sha256}\``);
  lines.push(`- Project: ${c.scope.project}`);
  lines.push('');
  lines.push('## Provenance');
  lines.push('');
  if (c.scope.campaigns.length === 0) lines.push('(no campaign)');
  for (const k of c.scope.campaigns) lines.push(`- Campaign ${k.name} (\`${k.id}\`, ${k.mode}, rubric version ${k.rubricVersion})`);
  lines.push('');
  lines.push(
    'Each row carries `witness` (or `metadata.witness` for slime): campaign, item ids, trajectory ids, task, split, review ids, reviewer count, agreement, rubric version, adjudicated, consensus method.',
  );
  lines.push('');
  lines.push('## Label distribution');
  lines.push('');
  lines.push(table(c.labels));
  lines.push('## Excluded items');
  lines.push('');
  lines.push(table(c.excluded));
  lines.push('## Agreement');
  lines.push('');
  if (!c.agreement) lines.push('No categorical labels to measure agreement on.');
  else {
    const a = c.agreement;
    lines.push(
      `Krippendorff's alpha (${a.level}) over the reviewers' categorical labels (verdict pass/fail; pair outcome a/b/tie/both_bad): ${fmt(a.value)}` +
        (a.ci ? `, 95% bootstrap CI [${fmt(a.ci[0])}, ${fmt(a.ci[1])}] (${a.validReplicates}/${a.replicates} replicates)` : '') +
        `; over the ${a.nUnits} item(s) with 2+ labels, ${a.nRaters} reviewers, ${a.nRatings} labels.`,
    );
  }
  lines.push('');
  lines.push('## Loading it');
  lines.push('');
  for (const u of usage[c.format]) lines.push(`- ${u}`);
  lines.push('');
  lines.push('## Derivation rules');
  lines.push('');
  lines.push(
    `- Consensus per item: the current adjudication first; else Dawid-Skene over the campaign's labels when the item has ${MIN_REVIEWS_FOR_DAWID_SKENE}+ reviews; else majority vote. Agreement = share of an item's reviewers who match the consensus.`,
  );
  lines.push('- Gold (known-answer) items are left out: they measure reviewers, not trajectories.');
  lines.push(
    '- Scores: the first likert question, normalised to 0..1; without one, the share of acceptance criteria marked pass. Verdict: an accept/reject-style single-choice question, else all criteria pass.',
  );
  lines.push(`- ${rules[formatKind[c.format]]}`);
  lines.push(
    `- Thresholds: min agreement ${c.options.minAgreement}, min reviews ${c.options.minReviews}, score gap ${c.options.scoreGap} (adjudicated items pass the thresholds).`,
  );
  lines.push('');
  lines.push('## The measurement guard');
  lines.push('');
  lines.push(
    evaluation
      ? 'This is an evaluation export: it holds eval-split tasks only and is labelled as such in every row (`purpose: "evaluation"`).'
      : 'Tasks in the eval split are measurement: this file holds no eval task and no trajectory of one. An export that would have included one fails and lists the offending items; every row was checked again before it was written.',
  );
  lines.push('');
  return lines.join('\n');
}
