import { describe, expect, it } from 'vitest';
import { defaultParseWorkers } from './parse-pool';

describe('defaultParseWorkers', () => {
  it('parses inline on one or two cores, then on one worker a core beyond two, at most two', () => {
    expect([1, 2, 3, 4, 16, 64].map((cores) => defaultParseWorkers(cores))).toEqual([0, 0, 1, 2, 2, 2]);
  });
});
