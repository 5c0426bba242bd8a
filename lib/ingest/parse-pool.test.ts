import { describe, expect, it } from 'vitest';
import { defaultParseWorkers } from './parse-pool';

describe('defaultParseWorkers', () => {
  it('parses inline on one core, and on two workers from two cores up (the one backend a batch writes on needs no more)', () => {
    expect([1, 2, 3, 16, 64].map((cores) => defaultParseWorkers(cores))).toEqual([0, 2, 2, 2, 2]);
  });
});
