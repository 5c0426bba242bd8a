import { describe, expect, it } from 'vitest';
import { tempFiles } from './test/temp-files';
import { readRatingsFile } from './read-ratings-file';
import { ratingRows } from './ratings';
import { splitCsv } from './read-records';

const { file, at } = tempFiles('witness-ratings-');

describe('readRatingsFile', () => {
  it('reads JSONL, keeping JSON types and skipping null values and blank lines', async () => {
    const p = await file(
      'a.jsonl',
      '{"unit": 1, "rater": "a", "value": 3}\n\n{"unit": 1, "rater": "b", "value": null}\n{"unit": "u2", "rater": 7, "value": "x"}\n',
    );
    expect(ratingRows(await readRatingsFile(p))).toEqual([
      { unit: 1, rater: 'a', value: 3 },
      { unit: 'u2', rater: 7, value: 'x' },
    ]);
  });

  it('reads CSV with quoted fields, CRLF, a BOM, any column order, missing markers and integer ids', async () => {
    const p = await file(
      'a.csv',
      '\ufeffrater,unit,value,note\r\n"Smith, J",1,4,ok\r\nb,1,NA,\r\nb,"unit ""2""",yes,"two\nlines"\r\nc,017,-1.5e0,\r\n',
    );
    expect(ratingRows(await readRatingsFile(p))).toEqual([
      { unit: 1, rater: 'Smith, J', value: 4 },
      { unit: 'unit "2"', rater: 'b', value: 'yes' },
      { unit: '017', rater: 'c', value: -1.5 },
    ]);
  });

  it('sniffs the format when the extension says nothing', async () => {
    const p = await file('ratings.txt', 'unit,rater,value\n1,a,2\n');
    expect(ratingRows(await readRatingsFile(p))).toEqual([{ unit: 1, rater: 'a', value: 2 }]);
  });

  it('reads an unquoted CSV byte by byte exactly as the general reader does (keys, numbers, strings, missing markers)', async () => {
    const units = ['0', '7', '017', ' 12 ', 'u-ü', '1e3', '123456789012345', '1234567890123456', '-3', 'a b'];
    const values = [
      '3',
      ' 4.5 ',
      'NA',
      '.',
      '',
      '-1.5e0',
      'yes',
      '1e999',
      '0x10',
      'Infinity',
      '+2',
      '007',
      '.5',
      '5.',
      '1e-7',
      ' NA ',
      'ü',
    ];
    const rows: string[] = [];
    for (let i = 0; i < 200; i++) rows.push(`${units[i % units.length]},r${i % 3},${values[i % values.length]}`);
    const plain = await file('plain.csv', `unit,rater,value\n${rows.join('\n')}\n`);
    // the same records with a quoted extra column: the general (string) reader
    const quoted = await file('quoted.csv', `unit,rater,value,q\r\n${rows.map((r) => `${r},"x"`).join('\r\n')}`);
    const fast = ratingRows(await readRatingsFile(plain));
    expect(fast).toEqual(ratingRows(await readRatingsFile(quoted)));
    expect(fast.slice(0, 2)).toEqual([
      { unit: 0, rater: 'r0', value: 3 },
      { unit: 7, rater: 'r1', value: 4.5 },
    ]);
    expect(fast.find((r) => r.value === 'yes')).toEqual({ unit: 123456789012345, rater: 'r0', value: 'yes' });
    for (const bad of ['unit,rater,value\n1,a,1\n , b,2\n', 'unit,rater,value\n1,a,1\n2,,2\n']) {
      const message = await readRatingsFile(await file('bad.csv', bad)).catch((e: Error) => e.message);
      const general = await readRatingsFile(await file('bad-q.csv', bad.replace('unit,rater,value', '"unit",rater,value'))).catch(
        (e: Error) => e.message,
      );
      expect(message).toMatch(/bad\.csv line 3: expected a (unit|rater), got an empty field/);
      expect(String(message).replace('bad.csv', '')).toBe(String(general).replace('bad-q.csv', ''));
    }
  });

  it('says the line and what was expected', async () => {
    await expect(readRatingsFile(await file('b.jsonl', '{"unit":1,"rater":"a","value":1}\n{"unit":1,"rater":"a"\n'))).rejects.toThrow(
      /b\.jsonl line 2: expected a JSON object with "unit", "rater", "value"; the line is not valid JSON/,
    );
    await expect(readRatingsFile(await file('c.jsonl', '{"unit":[1],"rater":"a","value":1}\n'))).rejects.toThrow(
      /c\.jsonl line 1: expected "unit" to be a string or a number/,
    );
    await expect(readRatingsFile(await file('d.csv', 'unit,coder,value\n1,a,1\n'))).rejects.toThrow(
      /d\.csv line 1: expected a CSV header with columns unit, rater, value; missing rater/,
    );
    await expect(readRatingsFile(await file('e.csv', 'unit,rater,value\n1,a,1\n\n2,b\n'))).rejects.toThrow(
      /e\.csv line 4: expected 3 fields \(unit, rater, value\), got 2/,
    );
    await expect(readRatingsFile(await file('f.csv', 'unit,rater,value\n1,"a,1\n'))).rejects.toThrow(
      /f\.csv line 2: a quoted CSV field is never closed/,
    );
    await expect(readRatingsFile(await file('g.csv', 'unit,rater,value\n'))).rejects.toThrow(/no ratings found/);
    await expect(readRatingsFile(at('absent.csv'))).rejects.toThrow(/Cannot read .*absent\.csv: no such file/);
  });
});

describe('splitCsv', () => {
  it('splits quoted and unquoted fields', () => {
    expect(splitCsv('a,"b,c","d""e",')).toEqual(['a', 'b,c', 'd"e', '']);
    expect(splitCsv('a,"open')).toBeNull();
  });
});
