import type { ChatMessage, ChatTool } from './chat-messages';
import { stepText, trajectoryToChat } from './chat-messages';
import { type ConsensusModel, type ConsensusMethod, pairConsensus, singleConsensus, type SingleConsensus } from './consensus';
import type { ItemLabels, LabelTrajectory, PairwiseItemLabels, SingleItemLabels } from './labels';

/**
 * Derivations: consensus labels -> training rows (pure). Which rows a format needs is its
 * `kind` (lib/datasets/formats.ts). Every row carries its provenance; every item that yields
 * no row is counted under a reason in `excluded`.
 */
export type RowKind = 'preference' | 'unpaired' | 'reward' | 'sft' | 'steps';

export interface Provenance {
  campaign_id: string;
  campaign: string;
  item_ids: string[];
  trajectory_ids: string[];
  task: string;
  split: 'train' | 'eval';
  review_ids: string[];
  reviewers: number;
  /** share of reviewers agreeing with the consensus (mean over items for score pairs); null without reviews */
  agreement: number | null;
  rubric_version_id: string;
  rubric_version: number;
  adjudicated: boolean;
  consensus: ConsensusMethod;
}

export interface PreferenceRow {
  kind: 'preference';
  /** pairwise: from a side-by-side comparison; scores: from two single-item consensus scores of the same task */
  source: 'pairwise' | 'scores';
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
  tools: ChatTool[];
  margin: number;
  provenance: Provenance;
}
export interface UnpairedRow {
  kind: 'unpaired';
  prompt: ChatMessage[];
  completion: ChatMessage[];
  tools: ChatTool[];
  label: boolean;
  provenance: Provenance;
}
export interface RewardRow {
  kind: 'reward';
  prompt: ChatMessage[];
  completion: ChatMessage[];
  tools: ChatTool[];
  score: number;
  spread: number;
  accepted: boolean | null;
  /** the task's reference answer when known (slime's `label`) */
  referenceAnswer: string | null;
  provenance: Provenance;
}
export interface SftRow {
  kind: 'sft';
  messages: ChatMessage[];
  tools: ChatTool[];
  provenance: Provenance;
}
export interface StepRow {
  kind: 'steps';
  prompt: string;
  completions: string[];
  labels: boolean[];
  provenance: Provenance;
}
export type DatasetRow = PreferenceRow | UnpairedRow | RewardRow | SftRow | StepRow;

export interface DeriveOptions {
  /** items whose agreement is below this are left out (adjudicated items are kept: a lead decided) */
  minAgreement: number;
  /** items with fewer current reviews are left out (adjudicated items are kept) */
  minReviews: number;
  /** score pairs: the least consensus-score gap (0..1) that makes a preference pair */
  scoreGap: number;
}
export const defaultDeriveOptions: DeriveOptions = { minAgreement: 0, minReviews: 1, scoreGap: 0.25 };

export type Excluded = Record<string, number>;

function count(excluded: Excluded, reason: string, n = 1) {
  excluded[reason] = (excluded[reason] ?? 0) + n;
}

function provenanceOf(
  item: ItemLabels,
  trajectories: LabelTrajectory[],
  c: { reviewIds: string[]; reviewers: number; agreement: number | null; adjudicated: boolean; method: ConsensusMethod },
): Provenance {
  return {
    campaign_id: item.campaignId,
    campaign: item.campaignName,
    item_ids: [item.itemId],
    trajectory_ids: trajectories.map((t) => t.id),
    task: trajectories[0]!.taskName,
    split: trajectories.some((t) => t.split === 'eval') ? 'eval' : 'train',
    review_ids: c.reviewIds,
    reviewers: c.reviewers,
    agreement: c.agreement === null ? null : round(c.agreement),
    rubric_version_id: item.rubricVersionId,
    rubric_version: item.rubricVersion,
    adjudicated: c.adjudicated,
    consensus: c.method,
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The thresholds; returns the exclusion reason or null. */
function gate(c: { reviewers: number; agreement: number | null; adjudicated: boolean }, o: DeriveOptions): string | null {
  if (c.adjudicated) return null;
  if (c.reviewers === 0) return 'no_reviews';
  if (c.reviewers < o.minReviews) return 'below_min_reviews';
  if ((c.agreement ?? 0) < o.minAgreement) return 'below_min_agreement';
  return null;
}

/**
 * The shared prompt of two trajectories of one task: their common prefix of messages, each side
 * keeping the rest of its own prompt before its completion. When the common prefix holds no user
 * message (e.g. two scaffolds with different system prompts), the prompt is the task instruction
 * alone and each side is its completion: an explicit-prompt trainer needs one prompt per pair.
 */
function splitPair(instruction: string, a: ReturnType<typeof trajectoryToChat>, b: ReturnType<typeof trajectoryToChat>) {
  let n = 0;
  while (n < a.prompt.length && n < b.prompt.length && JSON.stringify(a.prompt[n]) === JSON.stringify(b.prompt[n])) n++;
  const tools = new Map([...a.tools, ...b.tools].map((t) => [t.function.name, t]));
  const sorted = [...tools.keys()].sort().map((k) => tools.get(k)!);
  const prefix = a.prompt.slice(0, n);
  if (!prefix.some((m) => m.role === 'user'))
    return { prompt: [{ role: 'user' as const, content: instruction }], a: a.completion, b: b.completion, tools: sorted };
  return { prompt: prefix, a: [...a.prompt.slice(n), ...a.completion], b: [...b.prompt.slice(n), ...b.completion], tools: sorted };
}

/** Both sides of a pair are the same conversation (e.g. two checkpoints wrote the same transcript): no preference to learn. */
function identicalSides(pair: ReturnType<typeof splitPair>): boolean {
  return JSON.stringify(pair.a) === JSON.stringify(pair.b);
}

/** Chat form of a trajectory, memoised per object (the exporter reuses trajectories across the pairs of a task). */
const chats = new WeakMap<LabelTrajectory, ReturnType<typeof trajectoryToChat>>();
function chatOf(t: LabelTrajectory) {
  let chat = chats.get(t);
  if (!chat) chats.set(t, (chat = trajectoryToChat(t.instruction, t.steps)));
  return chat;
}

/**
 * Preference pair from a pairwise item. Ties and "both bad" make no pair (counted as `tie`,
 * `both_bad`), nor do two identical conversations (`identical`). margin = strength x agreement, where strength is the mean |preference|/2 of the
 * reviewers who agree with the outcome (adjudicated: |preference|/2, agreement 1).
 */
export function pairwisePreference(
  item: PairwiseItemLabels,
  model: ConsensusModel | undefined,
  o: DeriveOptions,
  excluded: Excluded,
): PreferenceRow | null {
  const c = pairConsensus(item, model);
  const reason = gate(c, o);
  if (reason) return (count(excluded, reason), null);
  if (c.outcome === null) return (count(excluded, 'no_label'), null);
  if (c.outcome === 'tie' || c.outcome === 'both_bad') return (count(excluded, c.outcome), null);
  const [chosenT, rejectedT] = c.outcome === 'a' ? [item.a, item.b] : [item.b, item.a];
  const pair = splitPair(chosenT.instruction, chatOf(chosenT), chatOf(rejectedT));
  if (identicalSides(pair)) return (count(excluded, 'identical'), null);
  const agreement = c.adjudicated ? 1 : (c.agreement ?? 0);
  return {
    kind: 'preference',
    source: 'pairwise',
    prompt: pair.prompt,
    chosen: pair.a,
    rejected: pair.b,
    tools: pair.tools,
    margin: round(c.strength * agreement),
    provenance: provenanceOf(item, [chosenT, rejectedT], c),
  };
}

export interface ScoredItem {
  item: SingleItemLabels;
  consensus: SingleConsensus;
}

/**
 * Preference pairs from single-item consensus scores of trajectories of the same task: every
 * two items of one task whose scores differ by at least `scoreGap` make a pair (higher score
 * chosen, margin = the gap), unless both are the same conversation (`identical`). Items are considered in the order given; pass one task's items.
 */
export function scorePairs(items: readonly ScoredItem[], o: DeriveOptions, excluded: Excluded): PreferenceRow[] {
  const usable = items.filter((s) => {
    const reason = gate(s.consensus, o) ?? (s.consensus.score === null ? 'no_score' : null);
    if (reason) count(excluded, reason);
    return !reason;
  });
  const rows: PreferenceRow[] = [];
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const [x, y] = [usable[i]!, usable[j]!];
      if (x.item.trajectory.taskName !== y.item.trajectory.taskName) continue;
      const gap = x.consensus.score! - y.consensus.score!;
      if (Math.abs(gap) < o.scoreGap) {
        count(excluded, 'score_gap_below_threshold');
        continue;
      }
      const [hi, lo] = gap > 0 ? [x, y] : [y, x];
      const pair = splitPair(hi.item.trajectory.instruction, chatOf(hi.item.trajectory), chatOf(lo.item.trajectory));
      if (identicalSides(pair)) {
        count(excluded, 'identical');
        continue;
      }
      const agreements = [hi.consensus.agreement, lo.consensus.agreement].filter((a): a is number => a !== null);
      const provenance: Provenance = {
        ...provenanceOf(hi.item, [hi.item.trajectory, lo.item.trajectory], {
          reviewIds: [...hi.consensus.reviewIds, ...lo.consensus.reviewIds],
          reviewers: hi.consensus.reviewers + lo.consensus.reviewers,
          agreement: agreements.length ? agreements.reduce((s, a) => s + a, 0) / agreements.length : null,
          adjudicated: hi.consensus.adjudicated || lo.consensus.adjudicated,
          method: hi.consensus.method === lo.consensus.method ? hi.consensus.method : 'majority',
        }),
        item_ids: [hi.item.itemId, lo.item.itemId],
      };
      rows.push({
        kind: 'preference',
        source: 'scores',
        prompt: pair.prompt,
        chosen: pair.a,
        rejected: pair.b,
        tools: pair.tools,
        margin: round(Math.abs(gap)),
        provenance,
      });
    }
  }
  return rows;
}

/**
 * A single item's row, made by `row` from its trajectory's conversation, when its consensus
 * passes the gate and `missing` (why the item cannot make this row) is null; else that reason is
 * counted in `excluded` and there is none.
 */
function gatedRow<R>(
  s: ScoredItem,
  o: DeriveOptions,
  excluded: Excluded,
  missing: string | null,
  row: (chat: ReturnType<typeof chatOf>) => R,
): R | null {
  const reason = gate(s.consensus, o) ?? missing;
  if (reason) return (count(excluded, reason), null);
  return row(chatOf(s.item.trajectory));
}

/** KTO: one unpaired row per single item with a consensus pass/fail verdict. */
export function unpairedRow(s: ScoredItem, o: DeriveOptions, excluded: Excluded): UnpairedRow | null {
  return gatedRow(s, o, excluded, s.consensus.accepted === null ? 'no_verdict' : null, (chat) => ({
    kind: 'unpaired',
    prompt: chat.prompt,
    completion: chat.completion,
    tools: chat.tools,
    label: s.consensus.accepted!,
    provenance: provenanceOf(s.item, [s.item.trajectory], s.consensus),
  }));
}

/** Reward: the scalar consensus score (0..1) with its spread and reviewer count. */
export function rewardRow(s: ScoredItem, o: DeriveOptions, excluded: Excluded): RewardRow | null {
  return gatedRow(s, o, excluded, s.consensus.score === null ? 'no_score' : null, (chat) => ({
    kind: 'reward',
    prompt: chat.prompt,
    completion: chat.completion,
    tools: chat.tools,
    score: round(s.consensus.score!),
    spread: round(s.consensus.spread ?? 0),
    accepted: s.consensus.accepted,
    referenceAnswer: s.item.trajectory.referenceAnswer,
    provenance: provenanceOf(s.item, [s.item.trajectory], s.consensus),
  }));
}

/** SFT: the whole conversation of a trajectory accepted by consensus. */
export function sftRow(s: ScoredItem, o: DeriveOptions, excluded: Excluded): SftRow | null {
  const missing = s.consensus.accepted === null ? 'no_verdict' : s.consensus.accepted ? null : 'not_accepted';
  return gatedRow(s, o, excluded, missing, (chat) => ({
    kind: 'sft',
    messages: [...chat.prompt, ...chat.completion],
    tools: chat.tools,
    provenance: provenanceOf(s.item, [s.item.trajectory], s.consensus),
  }));
}

/**
 * Process supervision from time-anchored evidence. A note marks a step wrong when its
 * `wrongStep` flag is set (lib/review/evidence.ts; the reviewer ticks "this step is wrong");
 * a flag on a non-agent step (tool output) counts for the agent step before it. The steps are
 * the agent steps up to the first flagged one: every step before it is `true`, the flagged one
 * `false`; later steps are left out (their correctness is unknown once the path went wrong).
 * Without any flag, an item accepted by consensus labels every agent step `true`; one that
 * was not accepted yields no row (`no_flagged_step`).
 */
export function stepRow(s: ScoredItem, o: DeriveOptions, excluded: Excluded): StepRow | null {
  const reason = gate(s.consensus, o);
  if (reason) return (count(excluded, reason), null);
  const steps = s.item.trajectory.steps;
  const agentPositions = steps.map((st, i) => (st.source === 'agent' ? i : -1)).filter((i) => i >= 0);
  if (agentPositions.length === 0) return (count(excluded, 'no_agent_steps'), null);
  let firstWrong: number | null = null;
  for (const r of s.item.reviews) {
    for (const e of r.evidence) {
      if (!e.wrongStep || e.stepIndex === null) continue;
      const pos = steps.findIndex((st) => st.index === e.stepIndex);
      if (pos < 0) continue;
      // the agent step at or before the flagged one
      let k = -1;
      for (let i = 0; i < agentPositions.length && agentPositions[i]! <= pos; i++) k = i;
      if (k < 0) continue;
      if (firstWrong === null || k < firstWrong) firstWrong = k;
    }
  }
  let labels: boolean[];
  if (firstWrong === null) {
    if (s.consensus.accepted !== true) return (count(excluded, 'no_flagged_step'), null);
    labels = agentPositions.map(() => true);
  } else {
    labels = agentPositions.slice(0, firstWrong + 1).map((_, i) => i < firstWrong!);
  }
  return {
    kind: 'steps',
    prompt: s.item.trajectory.instruction,
    completions: labels.map((_, i) => stepText(steps[agentPositions[i]!]!)),
    labels,
    provenance: provenanceOf(s.item, [s.item.trajectory], s.consensus),
  };
}

/**
 * Rows of one kind from a batch of items (the streaming unit of the exporter, and what a
 * training sink calls for newly finalised items). Score pairs are only formed within the
 * batch: pass every item of a task in the same batch. `model` is a Dawid-Skene fit over the
 * campaign (or the batch); without it, consensus falls back to majority.
 */
export function deriveRows(
  kind: RowKind,
  items: readonly ItemLabels[],
  model: ConsensusModel | undefined,
  o: DeriveOptions,
  excluded: Excluded,
): DatasetRow[] {
  const rows: DatasetRow[] = [];
  const single: ScoredItem[] = [];
  for (const item of items) {
    if (item.mode === 'pairwise') {
      if (kind !== 'preference') {
        count(excluded, 'pairwise_item_not_used_by_format');
        continue;
      }
      const row = pairwisePreference(item, model, o, excluded);
      if (row) rows.push(row);
    } else {
      single.push({ item, consensus: singleConsensus(item, model) });
    }
  }
  if (kind === 'preference') {
    const byTask = new Map<string, ScoredItem[]>();
    for (const s of single) byTask.set(s.item.trajectory.taskName, [...(byTask.get(s.item.trajectory.taskName) ?? []), s]);
    for (const group of byTask.values()) rows.push(...scorePairs(group, o, excluded));
    return rows;
  }
  const one = { unpaired: unpairedRow, reward: rewardRow, sft: sftRow, steps: stepRow }[kind];
  for (const s of single) {
    const row = one(s, o, excluded);
    if (row) rows.push(row);
  }
  return rows;
}
