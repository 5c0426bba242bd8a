import { criterionSchema, type Criterion } from './trajectory';

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Stable criterion keys: a slug of the text (lowercase ASCII letters, digits and `-`, at most
 * 64 characters). Text with nothing sluggable (e.g. only CJK) keys as `criterion`; duplicates
 * within a task get `-2`, `-3`, ... in order of appearance.
 */
export function slugKey(text: string): string {
  // ASCII is its own NFKD form (and normalize cost ~60 µs a call, a tenth of an ATIF file's parse)
  const slug = (ASCII.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? 'criterion' : slug;
}

/** Makes keys unique in order: the second `x` becomes `x-2`. */
export function uniqueKeys(criteria: Criterion[]): Criterion[] {
  const seen = new Map<string, number>();
  const used = new Set<string>();
  return criteria.map((c) => {
    let key = c.key;
    if (used.has(key)) {
      let n = seen.get(c.key) ?? 1;
      do {
        n++;
        key = `${c.key}-${n}`;
      } while (used.has(key));
      seen.set(c.key, n);
    }
    used.add(key);
    return key === c.key ? c : { ...c, key };
  });
}

/** Criteria from free texts (task metadata, Inspect targets): key = slug of the text. */
export function criteriaFromTexts(texts: string[], origin: Criterion['origin'], verdict: boolean | null = null): Criterion[] {
  return uniqueKeys(
    texts
      .map((t) => t.trim())
      .filter((t) => t !== '')
      .map((text) => ({ key: slugKey(text), text, origin, verdict })),
  );
}

/**
 * The one reader of stored criteria (a task's acceptanceCriteria column, JSON): each criterion
 * validated; anything malformed is left out rather than shown or checked wrong.
 */
export function parseCriteria(value: unknown): Criterion[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((c) => {
    const r = criterionSchema.safeParse(c);
    return r.success ? [r.data] : [];
  });
}
