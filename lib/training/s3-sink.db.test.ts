import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { createTrainingSink } from './create-training-sink';
import { retryDeadDelivery } from './retry-dead-delivery';
import { setEnv } from '../env';
import { deliverSink } from './deliver-sink';
import type { Manifest } from './send-batch';

/** An S3 sink against moto_server (a local S3): shards PUT by sequence, manifest replaced whole. */
const motoAvailable = spawnSync('sh', ['-c', 'command -v moto_server']).status === 0;
const credentials = { accessKeyId: 'test', secretAccessKey: 'test', region: 'us-east-1' };

describe.skipIf(!motoAvailable)('S3 training sink against moto_server', () => {
  let moto: ChildProcess | undefined;
  let endpoint = '';
  const client = new AwsClient({ ...credentials, service: 's3' });

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    endpoint = `http://127.0.0.1:${port}`;
    moto = spawn('moto_server', ['-p', String(port)], { stdio: 'ignore' });
    for (let i = 0; i < 150; i++) {
      try {
        await fetch(endpoint);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect((await client.fetch(`${endpoint}/trainer-data`, { method: 'PUT' })).ok).toBe(true);
    setEnv('S3_ENDPOINT', endpoint);
    setEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    setEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    await resetDatabase();
  }, 60_000);
  afterAll(() => {
    moto?.kill();
  });

  it('puts shards named by sequence and a manifest listing them; eval items never leave; a re-send changes nothing', async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
    const sink = await createTrainingSink(seeded.projectId, {
      name: 's3',
      kind: 's3',
      format: 'trl-kto',
      config: { bucket: 'trainer-data', prefix: 'witness/kto', batchSize: 5 },
    });
    expect((await deliverSink(sink.id)).state).toBe('idle');
    const get = async (name: string) => {
      const r = await client.fetch(`${endpoint}/trainer-data/witness/kto/${name}`);
      expect(r.status).toBe(200);
      return r.text();
    };
    const manifestText = await get('manifest.json');
    const manifest = JSON.parse(manifestText) as Manifest;
    expect(manifest.format).toBe('trl-kto');
    expect(manifest.shards.map((s) => s.sequence)).toEqual(manifest.shards.map((_, i) => i + 1));
    const rows: Array<{ label: boolean; witness: { split: string; item_ids: string[] } }> = [];
    for (const s of manifest.shards)
      rows.push(
        ...(await get(s.file))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
    expect(rows.length).toBe(6); // the 6 train single items; the eval task's 2 stay home
    expect(rows.every((r) => r.witness.split === 'train')).toBe(true);
    expect(new Set(rows.map((r) => r.witness.item_ids[0])).size).toBe(6);
    expect(rows.filter((r) => r.label).length).toBe(3);
    // re-send shard 1 (as after a crash before the ack): same object, same manifest
    const first = await db().delivery.findFirstOrThrow({ where: { sinkId: sink.id, sequence: 1 }, select: { id: true } });
    await db().delivery.update({ where: { id: first.id }, data: { status: 'dead' } });
    await retryDeadDelivery(first.id);
    expect((await deliverSink(sink.id)).state).toBe('idle');
    expect(await get('manifest.json')).toBe(manifestText);
  });
});
