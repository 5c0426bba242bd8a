import { describe, expect, it } from 'vitest';
import { type Manifest, shardName, withShard } from './send-batch';
import { parseAllowList } from './outbound-address';
import { assertSinkUrlAllowed, parseSinkConfig, parseSinkFilter } from './sink-config';

describe('sink config', () => {
  it('fills delivery defaults and says where a bad field is', () => {
    expect(parseSinkConfig('webhook', { url: 'https://trainer.example/hook' })).toMatchObject({
      kind: 'webhook',
      timeoutMs: 30_000,
      batchSize: 200,
      retry: { attempts: 8, baseMs: 2000 },
    });
    expect(() => parseSinkConfig('webhook', { url: 'ftp://x' })).toThrow(/^webhook sink config\.url: url must be an http\(s\) URL/);
    expect(() => parseSinkConfig('directory', { path: 'a\0b' })).toThrow(/directory sink config\.path: path must not contain a NUL byte/);
    expect(parseSinkConfig('directory', { path: 'relative/dir' })).toMatchObject({ path: 'relative/dir' }); // under the sinks root
    expect(() => parseSinkConfig('s3', { bucket: 'Bad_Bucket' })).toThrow(/s3 sink config\.bucket/);
    expect(parseSinkConfig('s3', { bucket: 'trainer-data', prefix: '/a/b/' })).toMatchObject({ prefix: 'a/b' });
    expect(() => parseSinkConfig('webhook', { url: 'https://x.example', retry: { attempts: 0 } })).toThrow(/config\.retry\.attempts/);
    expect(() => parseSinkConfig('webhook', { url: 'https://x.example', surprise: 1 })).toThrow(/webhook sink config/);
  });
  it('filters: defaults and ranges', () => {
    expect(parseSinkFilter({})).toEqual({ minReviews: 1, minAgreement: 0, scoreGap: 0.25 });
    expect(() => parseSinkFilter({ minAgreement: 2 })).toThrow(/sink filter\.minAgreement/);
  });
});

describe('webhook URLs refused at creation', () => {
  const refusal = (url: string, allow = '') => {
    try {
      assertSinkUrlAllowed(parseSinkConfig('webhook', { url }), parseAllowList(allow));
      return null;
    } catch (error) {
      return error as Error & { code?: string; details?: unknown };
    }
  };

  it('refuses the metadata service in every spelling of its address, naming the field and the reason', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://2852039166/', // decimal
      'http://0251.0376.0251.0376/', // octal
      'http://0xa9fea9fe/', // hex
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://169.254.43518/', // short forms
      'http://169.16689662/',
      'http://[::ffff:169.254.169.254]/', // IPv4-mapped IPv6
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/', // NAT64
    ]) {
      const error = refusal(url);
      expect(error?.message, url).toMatch(
        /^webhook sink config\.url: .* is refused: ([0-9a-f:]+ \()?169\.254\.169\.254\)? is a metadata address: sinks may not reach it unless WITNESS_SINK_ALLOW names it$/,
      );
      expect(error?.code).toBe('BAD_INPUT');
      expect(error?.details).toEqual({ field: 'config.url' });
    }
  });

  it('refuses loopback, link-local, private, unspecified and localhost hosts; names and public addresses pass', () => {
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:5432/', /127\.0\.0\.1 is a loopback address/],
      ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
      ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
      ['http://[::1]:8080/', /::1 is a loopback address/],
      ['http://[::ffff:127.0.0.1]/', /::ffff:7f00:1 \(127\.0\.0\.1\) is a loopback address/],
      ['http://localhost:3000/', /localhost resolves to 127\.0\.0\.1, a loopback address/],
      ['http://api.localhost./', /api\.localhost resolves to 127\.0\.0\.1, a loopback address/],
      ['http://169.254.1.1/', /169\.254\.1\.1 is a link-local address/],
      ['http://[fe80::1]/', /fe80::1 is a link-local address/],
      ['http://10.0.0.5/', /10\.0\.0\.5 is a private address/],
      ['http://0.0.0.0:80/', /0\.0\.0\.0 is a unspecified address/],
      ['http://0/', /0\.0\.0\.0 is a unspecified address/],
    ];
    for (const [url, reason] of cases) expect(refusal(url)?.message, url).toMatch(reason);
    expect(refusal('https://trainer.example/hook')).toBeNull(); // a name: checked at send time, with what it resolves to
    expect(refusal('https://93.184.216.34/hook')).toBeNull();
  });

  it('lets through what WITNESS_SINK_ALLOW names, as send time does, and never shows credentials', () => {
    expect(refusal('http://10.0.0.5:8000/', '10.0.0.0/8')).toBeNull();
    expect(refusal('http://localhost:8787/', 'localhost:8787')).toBeNull();
    expect(refusal('http://localhost:8788/', 'localhost:8787')?.message).toMatch(/loopback/);
    const error = refusal('http://user:pw@169.254.169.254/');
    expect(error?.message).toMatch(/config\.url: http:\/\/\*\*\*@169\.254\.169\.254\/ is refused/);
    expect(error?.message).not.toContain('pw');
  });
});

describe('shard manifest', () => {
  const batch = (sequence: number) => ({
    sinkId: 's',
    sinkName: 'n',
    format: 'trl-dpo',
    sequence,
    idempotencyKey: `s:${sequence}`,
    rows: 2,
    cursorFrom: null,
    cursorTo: '9',
    sha256: 'ab',
    body: Buffer.from(''),
  });
  it('lists each shard once, in sequence order, whatever order they are (re-)sent in', () => {
    let m: Manifest | null = null;
    m = withShard(m, batch(2));
    m = withShard(m, batch(1));
    m = withShard(m, batch(2));
    expect(m.shards.map((s) => [s.sequence, s.file])).toEqual([
      [1, 'shard-00000001.jsonl'],
      [2, 'shard-00000002.jsonl'],
    ]);
    expect(shardName(123)).toBe('shard-00000123.jsonl');
  });
});
