import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff';
import { signBody, verifySignature } from './signature';

describe('webhook signature', () => {
  it('is HMAC-SHA256 of the body, hex, with a sha256= prefix (RFC 4231-style known vector)', () => {
    // the widely published vector: HMAC_SHA256("key", "The quick brown fox jumps over the lazy dog")
    expect(signBody('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    // RFC 4231 test case 2
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
  it('verifies the same bytes only', () => {
    const body = Buffer.from('{"a":1}\n');
    const sig = signBody('s3cret-s3cret-s3cret', body);
    expect(verifySignature('s3cret-s3cret-s3cret', body, sig)).toBe(true);
    expect(verifySignature('s3cret-s3cret-s3cret', Buffer.from('{"a":2}\n'), sig)).toBe(false);
    expect(verifySignature('other-secret-other', body, sig)).toBe(false);
    expect(verifySignature('s3cret-s3cret-s3cret', body, undefined)).toBe(false);
    expect(verifySignature('s3cret-s3cret-s3cret', body, 'sha256=00')).toBe(false);
  });
});

describe('retry backoff', () => {
  const policy = { baseMs: 100, maxMs: 1000 };
  it('doubles per attempt between half and the full step, capped', () => {
    expect(backoffMs(1, policy, () => 0)).toBe(50);
    expect(backoffMs(1, policy, () => 1)).toBe(100);
    expect(backoffMs(2, policy, () => 0)).toBe(100);
    expect(backoffMs(3, policy, () => 1)).toBe(400);
    expect(backoffMs(10, policy, () => 1)).toBe(1000);
    expect(backoffMs(10, policy, () => 0)).toBe(500);
    expect(backoffMs(1000, policy, () => 0.5)).toBe(750);
  });
  it('jitters: different random draws give different delays within the band', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const d = backoffMs(4, policy);
      expect(d).toBeGreaterThanOrEqual(400);
      expect(d).toBeLessThanOrEqual(800);
      seen.add(d);
    }
    expect(seen.size).toBeGreaterThan(5);
  });
});
