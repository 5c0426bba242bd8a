/**
 * Checkpoints of one policy. A policy's family is its model (Policy.model, else the part of the
 * name before "@"); its checkpoint is Policy.checkpoint, else the part after "@" (up to " / "
 * and an agent name). The checkpoint's order is the last integer in it ("ckpt-2000" -> 2000,
 * "step_120k" -> 120); checkpoints without a number sort after, by name.
 *
 * One checkpoint is one checkpoint however its policies spell it: families and checkpoints are
 * compared by `spelling` (lower case, every run of other characters than letters and digits one
 * "-"), so `acme-coder-7b@ckpt-2000` and `acme/coder-7b@ckpt-2000 / generate` (the same weights run
 * by another agent) are one checkpoint, `checkpointKey` "acme-coder-7b@ckpt-2000".
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

/** How a family or a checkpoint is compared: "Acme/Coder_7B" -> "acme-coder-7b". */
export function spelling(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}

/** The policy's checkpoint as one key (family@checkpoint, each by `spelling`); null when it names no checkpoint. */
export function checkpointKey(p: PolicyIdentity): string | null {
  const c = checkpointOf(p);
  return c.checkpoint === null ? null : `${spelling(c.family)}@${spelling(c.checkpoint)}`;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/**
 * Families with at least two checkpoints, each ordered by step (then checkpoint name). A family
 * is named as its first policy spells it; a checkpoint two policies share is one point, the
 * first of them (policyReport merges such policies' figures first: mergeCheckpointPolicies).
 */
export function checkpointSeries<T extends PolicyIdentity>(policies: readonly T[]): { family: string; points: (T & CheckpointOf)[] }[] {
  const byFamily = new Map<string, { family: string; points: (T & CheckpointOf)[]; seen: Set<string> }>();
  for (const p of policies) {
    const c = checkpointOf(p);
    if (c.checkpoint === null) continue;
    const key = spelling(c.family);
    const entry = byFamily.get(key) ?? { family: c.family, points: [], seen: new Set<string>() };
    byFamily.set(key, entry);
    if (entry.seen.has(spelling(c.checkpoint))) continue;
    entry.seen.add(spelling(c.checkpoint));
    entry.points.push({ ...p, ...c });
  }
  return [...byFamily.values()]
    .filter(({ points }) => points.length >= 2)
    .map(({ family, points }) => ({
      family,
      points: points.sort(
        (a, b) =>
          (a.step ?? Number.POSITIVE_INFINITY) - (b.step ?? Number.POSITIVE_INFINITY) ||
          (a.checkpoint! < b.checkpoint! ? -1 : a.checkpoint! > b.checkpoint! ? 1 : 0),
      ),
    }))
    .sort((a, b) => (a.family < b.family ? -1 : 1));
}

/**
 * Policies grouped so that one checkpoint is one group (by checkpointKey; a policy naming no
 * checkpoint is a group of its own), in the order of their first policy. Each group is named by
 * its shortest name (then the first): `acme-coder-7b@ckpt-2000` over
 * `acme/coder-7b@ckpt-2000 / generate`, which stays as an alias.
 */
export function checkpointGroups<T extends PolicyIdentity & { id: string }>(policies: readonly T[]): { name: string; members: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const p of policies) {
    const key = checkpointKey(p) ?? `id:${p.id}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()].map((members) => ({
    name: members.reduce((best, p) => (p.name.length < best.name.length ? p : best)).name,
    members,
  }));
}
