import { describe, expect, it } from 'vitest';
import { tempFiles } from './test/temp-files';
import { readBattlesFile } from './read-battles-file';

const { file } = tempFiles('witness-battles-');

describe('readBattlesFile', () => {
  it('reads JSONL (ignoring extra keys) and CSV', async () => {
    const jsonl = await file(
      'a.jsonl',
      '{"model_a":"x","model_b":"y","winner":"model_a","turn":1}\n{"model_a":"y","model_b":"x","winner":"tie (bothbad)"}\n',
    );
    expect(await readBattlesFile(jsonl)).toEqual([
      { model_a: 'x', model_b: 'y', winner: 'model_a' },
      { model_a: 'y', model_b: 'x', winner: 'tie (bothbad)' },
    ]);
    const csv = await file('a.csv', 'model_a,model_b,winner\nx,y,tie\n"y, v2",x,model_b\n');
    expect(await readBattlesFile(csv)).toEqual([
      { model_a: 'x', model_b: 'y', winner: 'tie' },
      { model_a: 'y, v2', model_b: 'x', winner: 'model_b' },
    ]);
  });

  it('reads an unquoted CSV byte by byte exactly as the general reader does, errors included', async () => {
    const rows = ['a,b,model_a', ' b ,c,tie', 'c,a,tie (bothbad)', 'ü-1,a,model_b', '', 'a,ü-1,model_a '];
    const plain = await file('plain.csv', `winner,model_b,model_a\r\n${rows.map((r) => r.split(',').reverse().join(',')).join('\r\n')}`);
    const quoted = await file('quoted.csv', `"winner",model_b,model_a\n${rows.map((r) => r.split(',').reverse().join(',')).join('\n')}\n`);
    const fast = await readBattlesFile(plain);
    expect(fast).toHaveLength(5);
    expect(fast).toEqual(await readBattlesFile(quoted));
    for (const bad of ['model_a,model_b,winner\nx,y,tie\nx,x,tie\n', 'model_a,model_b,winner\nx,y,draw\n', 'model_a,model_b\nx,y\n']) {
      const fastError = await readBattlesFile(await file('bad.csv', bad)).catch((e: Error) => e.message);
      const generalError = await readBattlesFile(await file('bad.csv', bad.replace('model_a', '"model_a"'))).catch((e: Error) => e.message);
      expect(fastError).toMatch(/^.*bad\.csv line \d: expected/);
      expect(fastError).toBe(generalError);
    }
  });

  it('says the line and what was expected', async () => {
    await expect(readBattlesFile(await file('b.jsonl', '{"model_a":"x","model_b":"y","winner":"draw"}\n'))).rejects.toThrow(
      'b.jsonl line 1: expected "winner" to be one of "model_a", "model_b", "tie", "tie (bothbad)", got "draw"',
    );
    await expect(readBattlesFile(await file('c.csv', 'model_a,model_b,winner\nx,,tie\n'))).rejects.toThrow(
      /c\.csv line 2: expected "model_b" to be a non-empty string/,
    );
    await expect(readBattlesFile(await file('d.jsonl', '{"model_a":"x","model_b":"x","winner":"tie"}\n'))).rejects.toThrow(
      /d\.jsonl line 1: expected two different models/,
    );
  });
});
