import { readJsonDocument } from './chat-documents';
import { looksLikeTauBench } from './chat-detect';
import { asText, compact, emptyTrajectory } from './chat-fields';
import {
  convertItem,
  describe,
  expectArray,
  expectRecord,
  fail,
  firstText,
  idString,
  indexSteps,
  openaiMessagesToSteps,
  sumUsage,
} from './chat-messages';
import { slugKey, uniqueKeys } from './criteria';
import { fileImporter } from './file-importer';
import type { Importer } from './importer';
import { baseName, errorItem } from './item';
import { joinPointer } from './json-pointer';
import { asCount, asNumber, isRecord } from './parse-json';
import type { Criterion, Trajectory } from './trajectory';

/**
 * tau-bench results files: a JSON list of `EnvRunResult` `{ task_id, reward, info: { task: {
 * user_id, actions: [{name, kwargs}], instruction, outputs }, source, user_cost, reward_info: {
 * reward, info: { r_actions, gt_data_hash } | { r_outputs, outputs }, actions } }, traj:
 * [OpenAI messages], trial }` — one trajectory per entry (a single entry object also works).
 *
 * The run's model and agent strategy are not inside the file; tau-bench writes them into the
 * file name (`<strategy>-<model>-<temperature>_range_<a>-<b>_user-<user model>-<user strategy>_<time>.json`),
 * so they are read from there when it has that shape.
 */
export const tauBenchImporter: Importer = fileImporter({
  format: 'tau-bench',
  fileLabel: 'a tau-bench results .json file',
  looksLike: looksLikeTauBench,
  async *parseFile(file) {
    const doc = await readJsonDocument(file);
    if (!doc.ok) {
      yield errorItem(doc.where, doc.message);
      return;
    }
    const run = runFromFileName(file.path);
    const value = doc.value;
    if (Array.isArray(value) && value.length === 0) {
      yield errorItem('/', 'expected at least one tau-bench result, found an empty list');
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const pointer = joinPointer('', i);
        yield convertItem('', pointer, () => convertTauBenchResult(value[i], pointer, run));
      }
    } else if (isRecord(value)) {
      yield convertItem('', '', () => convertTauBenchResult(value, '', run));
    } else {
      yield errorItem('/', `expected a JSON array of tau-bench results, found ${describe(value)}`);
    }
  },
});

export interface TauBenchRun {
  agentStrategy: string | null;
  model: string | null;
  temperature: number | null;
  userModel: string | null;
  userStrategy: string | null;
}

const fileNamePattern =
  /^(tool-calling|act|react|few-shot|[a-z]+(?:-[a-z]+)*?)-(.+)-(\d+(?:\.\d+)?)_range_-?\d+--?\d+_user-(.+)-([a-z]+)_\d/;

/** The run settings tau-bench encodes in its results file name (all null when the name has another shape). */
export function runFromFileName(path: string): TauBenchRun {
  const m = fileNamePattern.exec(baseName(path));
  if (!m) return { agentStrategy: null, model: null, temperature: null, userModel: null, userStrategy: null };
  return {
    agentStrategy: m[1] ?? null,
    model: m[2] ?? null,
    temperature: m[3] === undefined ? null : Number(m[3]),
    userModel: m[4] ?? null,
    userStrategy: m[5] ?? null,
  };
}

function binary(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return asNumber(value);
}

function actionText(action: Record<string, unknown>): string {
  const name = typeof action.name === 'string' ? action.name : 'action';
  return `${name}(${action.kwargs === undefined ? '' : JSON.stringify(action.kwargs)})`;
}

export function convertTauBenchResult(raw: unknown, pointer: string, run: TauBenchRun): Trajectory {
  const result = expectRecord(raw, pointer, 'a tau-bench result object');
  const taskId = idString(result.task_id);
  if (taskId === null) {
    fail(
      joinPointer(pointer, 'task_id'),
      result.task_id === undefined
        ? 'missing: expected the task id (a number)'
        : `expected the task id as a number, found ${describe(result.task_id)}`,
    );
  }
  if (result.reward !== undefined && result.reward !== null && asNumber(result.reward) === null) {
    fail(joinPointer(pointer, 'reward'), `expected the reward as a number, found ${describe(result.reward)}`);
  }
  if (result.info !== undefined && result.info !== null) expectRecord(result.info, joinPointer(pointer, 'info'));
  const info = isRecord(result.info) ? result.info : {};
  const trajPointer = joinPointer(pointer, 'traj');
  expectArray(result.traj, trajPointer, 'an array of messages (traj)');
  const steps = openaiMessagesToSteps(result.traj, trajPointer);

  const task = isRecord(info.task) ? info.task : {};
  const rewardInfo = isRecord(info.reward_info) ? info.reward_info : {};
  const rewardDetails = isRecord(rewardInfo.info) ? rewardInfo.info : {};
  const outputsChecked = isRecord(rewardDetails.outputs) ? rewardDetails.outputs : {};

  const criteria: Criterion[] = [];
  if (Array.isArray(task.actions)) {
    for (const a of task.actions) {
      if (!isRecord(a)) continue;
      const text = actionText(a);
      criteria.push({ key: slugKey(`action ${text}`), text: `Expected action: ${text}`, origin: 'task', verdict: null });
    }
  }
  if (Array.isArray(task.outputs)) {
    for (const o of task.outputs) {
      if (typeof o !== 'string' || o.trim() === '') continue;
      const verdict = outputsChecked[o];
      criteria.push({
        key: slugKey(`output ${o}`),
        text: `Expected output: ${o}`,
        origin: 'task',
        verdict: typeof verdict === 'boolean' ? verdict : null,
      });
    }
  }

  const components: Record<string, number> = {};
  const rActions = binary(rewardDetails.r_actions);
  if (rActions !== null) components.r_actions = rActions;
  const rOutputs = binary(rewardDetails.r_outputs);
  if (rOutputs !== null) components.r_outputs = rOutputs;
  const reward = asNumber(result.reward) ?? asNumber(rewardInfo.reward);

  const trial = asNumber(result.trial);
  const stepUsage = sumUsage(steps.map((s) => s.usage));
  const totalCost = asCount(info.total_cost) ?? asCount(info.agent_cost);
  const error = info.error;

  return {
    ...emptyTrajectory('tau-bench', taskId),
    externalId: trial === null ? taskId : `${taskId}-trial-${trial}`,
    task: {
      name: taskId,
      instruction: typeof task.instruction === 'string' ? task.instruction : firstText(steps, 'user'),
      acceptanceCriteria: uniqueKeys(criteria),
      environment: null,
      split: null,
      metadata: compact({ user_id: typeof task.user_id === 'string' ? task.user_id : undefined }),
    },
    policy: { model: run.model, checkpoint: null, agent: run.agentStrategy },
    steps: indexSteps(steps),
    verifier: reward === null && Object.keys(components).length === 0 ? null : { reward, components },
    usage:
      totalCost !== null
        ? { promptTokens: stepUsage?.promptTokens ?? null, completionTokens: stepUsage?.completionTokens ?? null, costUsd: totalCost }
        : stepUsage,
    exitStatus: error === undefined || error === null ? null : 'error',
    metadata: compact({
      trial: trial ?? undefined,
      user_cost: asCount(info.user_cost),
      last_source: typeof info.source === 'string' ? info.source : undefined,
      gt_data_hash: typeof rewardDetails.gt_data_hash === 'string' ? rewardDetails.gt_data_hash : undefined,
      error: error === undefined || error === null ? undefined : asText(error),
      temperature: run.temperature,
      user_model: run.userModel,
      user_strategy: run.userStrategy,
    }),
  };
}
