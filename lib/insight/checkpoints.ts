/**
 * Checkpoints of one policy. A policy's family is its model (Policy.model, else the part of the
 * name before "@"); its checkpoint is Policy.checkpoint, else the part after "@" (up to " / "
 * and an agent name). The checkpoint's order is the last integer in it ("ckpt-2000" -> 2000,
 * "step_120k" -> 120); checkpoints without a number sort after, by name.
 */
export interface PolicyIdentity {
  name: string;
  model: string | null;
  checkpoint: string | null;
}

export interface CheckpointOf {
  family: string;
  checkpoint: string | null;
  step: number | null;
}

export function checkpointOf(p: PolicyIdentity): CheckpointOf {
  const [head, tail] = splitOnce(p.name.split(' / ')[0]!, '@');
  const family = (p.model?.trim() || head).trim();
  const checkpoint = (p.checkpoint?.trim() || tail?.trim() || null) ?? null;
  const digits = checkpoint?.match(/(\d+)(?!.*\d)/);
  return { family, checkpoint, step: digits ? Number(digits[1]) : null };
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/** Families with at least two checkpoints, each ordered by step (then checkpoint name). */
export function checkpointSeries<T extends PolicyIdentity>(policies: readonly T[]): { family: string; points: (T & CheckpointOf)[] }[] {
  const byFamily = new Map<string, (T & CheckpointOf)[]>();
  for (const p of policies) {
    const c = checkpointOf(p);
    if (c.checkpoint === null) continue;
    const list = byFamily.get(c.family) ?? [];
    list.push({ ...p, ...c });
    byFamily.set(c.family, list);
  }
  return [...byFamily.entries()]
    .filter(([, points]) => points.length >= 2)
    .map(([family, points]) => ({
      family,
      points: points.sort(
        (a, b) =>
          (a.step ?? Number.POSITIVE_INFINITY) - (b.step ?? Number.POSITIVE_INFINITY) ||
          (a.checkpoint! < b.checkpoint! ? -1 : a.checkpoint! > b.checkpoint! ? 1 : 0),
      ),
    }))
    .sort((a, b) => (a.family < b.family ? -1 : 1));
}
