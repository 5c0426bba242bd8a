import type { Criterion } from '../formats/trajectory';

/**
 * Test results mentioned in tool output: "test_outputs.py::test_ok PASSED", "FAILED
 * tests/x.py::test_y - AssertionError", "test_y (mod.Case) ... ok", "--- FAIL: TestY", "✓ test y".
 * Used to tick or cross a criterion at the step where the agent's own run settles it.
 */

export interface TestMatcher {
  key: string;
  /** names to look for, longest first (the full id, then the bare test name) */
  names: string[];
}

/** Criteria that name a test (verifier-origin ones, or keys that look like test ids). */
export function testMatchers(criteria: Criterion[]): TestMatcher[] {
  const out: TestMatcher[] = [];
  for (const c of criteria) {
    const key = c.key;
    const looksLikeTest = c.origin === 'verifier' || key.includes('::') || /(^|[^a-z])test/i.test(key);
    if (!looksLikeTest) continue;
    const names = new Set<string>();
    names.add(key);
    const last = key
      .split('::')
      .pop()!
      .replace(/\[.*\]$/, '');
    if (last.length >= 4) names.add(last);
    out.push({ key, names: [...names].sort((a, b) => b.length - a.length) });
  }
  return out;
}

const PASS = /(?:\bPASSED\b|\bPASS\b|\.\.\. ok\b|✓|✔)/;
const FAIL = /(?:\bFAILED\b|\bFAIL\b|\bERROR\b|\.\.\. (?:FAIL|ERROR)\b|✗|✘)/;
const STATUS = /PASS|FAIL|ERROR|\.\.\. ok|✓|✔|✗|✘/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const nameRegexCache = new Map<string, RegExp>();
/**
 * A full id ("tests/x.py::test_y") may stand anywhere between non-word characters; a bare test
 * name must stand as a name, not inside a path or file name ("tests/test_mean.py" does not
 * mention the test `test_mean`): after a start, space, ":", "." or "(", and not before ".", "/".
 */
function nameRegex(name: string): RegExp {
  let r = nameRegexCache.get(name);
  if (!r) {
    const bare = !name.includes('::') && !name.includes('/');
    r = bare ? new RegExp(`(?:^|[\\s:.(])${escapeRegExp(name)}(?![\\w./])`) : new RegExp(`(?:^|[^\\w])${escapeRegExp(name)}(?![\\w])`);
    nameRegexCache.set(name, r);
  }
  return r;
}

/** Results in the text, in the order they appear (several per criterion possible). */
export function testResultsIn(text: string, matchers: TestMatcher[]): Array<{ key: string; state: 'pass' | 'fail' }> {
  if (matchers.length === 0 || !STATUS.test(text)) return [];
  const out: Array<{ key: string; state: 'pass' | 'fail' }> = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (!STATUS.test(line)) continue;
    const fail = FAIL.test(line);
    const pass = !fail && PASS.test(line);
    if (!fail && !pass) continue;
    for (const m of matchers) {
      if (m.names.some((n) => line.includes(n) && nameRegex(n).test(line))) out.push({ key: m.key, state: fail ? 'fail' : 'pass' });
    }
  }
  return out;
}
