/**
 * A reviewer's score on a gold item: the share of the known answers they matched. Only the
 * questions the gold item has answers for count; criteria answers count per criterion.
 */
export function goldScore(known: Record<string, unknown>, given: Record<string, unknown>): number | null {
  let total = 0;
  let matched = 0;
  for (const [question, expected] of Object.entries(known)) {
    const actual = given[question];
    if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
      for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
        total++;
        if ((actual as Record<string, unknown> | undefined)?.[key] === value) matched++;
      }
    } else if (Array.isArray(expected)) {
      total++;
      const a = Array.isArray(actual) ? [...actual].sort() : [];
      if (JSON.stringify(a) === JSON.stringify([...expected].sort())) matched++;
    } else {
      total++;
      if (actual === expected) matched++;
    }
  }
  return total === 0 ? null : matched / total;
}
