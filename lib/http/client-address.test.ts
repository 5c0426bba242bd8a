import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from './client-address';

describe('resolveClientAddress', () => {
  it('with no trusted proxy, is the socket peer whatever X-Forwarded-For a client sends', () => {
    expect(resolveClientAddress(undefined, '203.0.113.5', 0)).toBe('203.0.113.5');
    expect(resolveClientAddress('1.2.3.4', '203.0.113.5', 0)).toBe('203.0.113.5');
    expect(resolveClientAddress(['1.2.3.4', '5.6.7.8'], '::ffff:203.0.113.5', 0)).toBe('::ffff:203.0.113.5');
  });

  it('behind one proxy, is the hop that proxy appended; hops the client wrote left of it are ignored', () => {
    // the client sent "X-Forwarded-For: 6.6.6.6"; the proxy (10.0.0.2) appended the address it saw
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7');
    expect(resolveClientAddress('198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7');
  });

  it('behind two proxies, counts two hops from the right; too few hops fall back to the leftmost one there is', () => {
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7, 10.0.0.3', '10.0.0.2', 2)).toBe('198.51.100.7');
    expect(resolveClientAddress(undefined, '10.0.0.2', 2)).toBe('10.0.0.2');
    expect(resolveClientAddress(' , ', undefined, 0)).toBe('unknown');
  });
});
