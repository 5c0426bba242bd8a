import { mkdtemp, mkdir, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputs, type CollectedInput } from './collect-inputs';

async function all(iter: AsyncIterable<CollectedInput>): Promise<CollectedInput[]> {
  const out: CollectedInput[] = [];
  for await (const x of iter) out.push(x);
  return out;
}

describe('collectInputs', () => {
  it('refuses files over the size limit with a clear message, without reading them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-collect-'));
    await writeFile(path.join(dir, 'big.json'), 'x'.repeat(3 * 1024 * 1024));
    const [item] = await all(
      collectInputs([path.join(dir, 'big.json')], { format: 'auto', maxBytes: 2 * 1024 * 1024, readStdin: async () => '' }),
    );
    expect(item).toEqual({
      ok: false,
      path: path.join(dir, 'big.json'),
      where: path.join(dir, 'big.json'),
      message: 'file is 3.0 MiB, over the import limit of 2.0 MiB (raise WITNESS_IMPORT_MAX_MB, or split the file)',
    });
  });

  it('walks directories in name order, skips hidden files, and takes a Harbor trial directory as one input', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-collect-'));
    await mkdir(path.join(dir, 'nested'));
    await writeFile(path.join(dir, 'b.json'), '[]');
    await writeFile(path.join(dir, 'nested', 'a.jsonl'), '{}');
    await writeFile(path.join(dir, '.hidden'), 'x');
    await cp('lib/formats/fixtures/harbor/trial-basic', path.join(dir, 'trial'), { recursive: true });
    const items = await all(collectInputs([dir], { format: 'auto', maxBytes: 1e9, readStdin: async () => '' }));
    expect(items.map((i) => [i.ok && i.input.kind, path.relative(dir, i.path)])).toEqual([
      ['file', 'b.json'],
      ['file', 'nested/a.jsonl'],
      ['dir', 'trial'],
    ]);
  });

  it('takes a Cline task folder and an OpenHands session folder each as one input, and walks aider’s hidden history', async () => {
    // Cline: <globalStorage>/tasks/<id>/ (api_conversation_history.json + ui_messages.json, task_metadata.json,
    // focus chain); OpenHands: sessions/<id>/ (events/<n>.json + metadata.json); aider: .aider.chat.history.md
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-collect-'));
    await mkdir(path.join(dir, 'tasks'));
    await cp('lib/formats/fixtures/cline-task/1764412345678', path.join(dir, 'tasks', '1764412345678'), { recursive: true });
    await mkdir(path.join(dir, 'sessions'));
    await cp('lib/formats/fixtures/openhands/session-7f3a', path.join(dir, 'sessions', '7f3a'), { recursive: true });
    await cp('lib/formats/fixtures/aider/.aider.chat.history.md', path.join(dir, '.aider.chat.history.md'));
    const items = await all(collectInputs([dir], { format: 'auto', maxBytes: 1e9, readStdin: async () => '' }));
    expect(items.map((i) => [i.ok && i.input.kind, path.relative(dir, i.path)])).toEqual([
      ['file', '.aider.chat.history.md'],
      ['dir', 'sessions/7f3a'],
      ['dir', 'tasks/1764412345678'],
    ]);
    // forced to the format, the folder is still one input
    const forced = await all(collectInputs([path.join(dir, 'tasks')], { format: 'cline', maxBytes: 1e9, readStdin: async () => '' }));
    expect(forced.map((i) => [i.ok && i.input.kind, path.relative(dir, i.path)])).toEqual([['dir', 'tasks/1764412345678']]);
  });

  it('reports a missing path and reads - from stdin', async () => {
    const items = await all(collectInputs(['/no/such/file', '-'], { format: 'auto', maxBytes: 1e9, readStdin: async () => '{"a":1}' }));
    expect(items[0]).toMatchObject({ ok: false, message: 'no such file or directory' });
    expect(items[1]).toMatchObject({ ok: true, path: 'stdin' });
  });
});
