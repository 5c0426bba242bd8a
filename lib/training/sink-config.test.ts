import { describe, expect, it } from 'vitest';
import { type Manifest, shardName, withShard } from './send-batch';
import { parseSinkConfig, parseSinkFilter } from './sink-config';

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
