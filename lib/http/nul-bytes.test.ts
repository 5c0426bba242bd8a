import { describe, expect, it } from 'vitest';
import { findNulByte, findNulInUrl } from './nul-bytes';

describe('NUL bytes are found where they are', () => {
  it('in nested values and keys', () => {
    expect(findNulByte({ a: 'ok', filter: { environment: 'x\0' } })).toBe('filter.environment');
    expect(findNulByte({ list: ['a', 'b\0c'] })).toBe('list.1');
    expect(findNulByte({ ['k\0']: 1 })).toBe('k\\0');
    expect(findNulByte('\0')).toBe('(root)');
    expect(findNulByte({ a: 1, b: [null, true, 'fine'] })).toBeNull();
  });
  it('in a URL path or query parameter', () => {
    expect(findNulInUrl(new URL('http://x/api/v1/trajectories/%00'))).toEqual({
      field: 'path',
      message: expect.stringMatching(/path must not contain a NUL/),
    });
    expect(findNulInUrl(new URL('http://x/api/v1/reviews?campaignId=%00'))).toMatchObject({ field: 'campaignId' });
    expect(findNulInUrl(new URL('http://x/trajectories?q=a%00b'))).toMatchObject({
      field: 'q',
      message: 'query parameter q must not contain a NUL byte (%00)',
    });
    expect(findNulInUrl(new URL('http://x/trajectories/%E0%A4%A'))).toMatchObject({ field: 'path' });
    expect(findNulInUrl(new URL('http://x/trajectories?q=%E2%82%AC'))).toBeNull();
  });
});
