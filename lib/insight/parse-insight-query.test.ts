import { describe, expect, it } from 'vitest';
import { parseInsightQuery } from './parse-insight-query';

describe('the insight query', () => {
  it('reads ?environment= as env, so a shared trajectory-list link filters instead of being ignored', () => {
    expect(parseInsightQuery({ project: 'demo', environment: 'physics-derivations' })).toMatchObject({
      project: 'demo',
      env: 'physics-derivations',
    });
    // env wins when both are given
    expect(parseInsightQuery({ env: 'a', environment: 'b' }).env).toBe('a');
    expect(parseInsightQuery({ environment: ['x', 'y'] }).env).toBe('x');
    expect(parseInsightQuery({ environment: '' }).env).toBeUndefined();
    expect(parseInsightQuery({}).env).toBeUndefined();
  });
});
