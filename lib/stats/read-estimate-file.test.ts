import { describe, expect, it } from 'vitest';
import { tempFiles } from './test/temp-files';
import { mulberry32 } from './prng';
import { parseDecimal, readEstimateFile } from './read-estimate-file';

const { file, at } = tempFiles('witness-estimate-file-');
const read = async (name: string, text: string | Buffer) => readEstimateFile(await file(name, text), name);
/** Each file, read, fails with its message (which names the line). */
async function expectErrors(cases: [name: string, text: string, message: string][]) {
  for (const [name, text, message] of cases) await expect(read(name, text)).rejects.toThrow(message);
}
const plain = (groups: Awaited<ReturnType<typeof readEstimateFile>>) =>
  groups.map((g) => ({
    group: g.group,
    prediction: Array.from(g.prediction),
    label: Array.from(g.label).map((x) => (Number.isNaN(x) ? null : x)),
    probability: g.probability && Array.from(g.probability),
  }));

describe('readEstimateFile: CSV', () => {
  it('reads the columns in any order, extra columns ignored, empty / NA / . labels missing', async () => {
    const g = await read('a.csv', 'label,note,prediction,item\n1,x,0.9,a\n,y,0.25,b\nNA,z,1e-1,c\n.,w,0,d\n0,v,1,e\n');
    expect(plain(g)).toEqual([{ group: null, prediction: [0.9, 0.25, 0.1, 0, 1], label: [1, null, null, null, 0], probability: null }]);
  });

  it('handles a BOM, CRLF, blank lines, spaces, quoted fields (also across lines) and groups sorted by name', async () => {
    const text =
      '\ufeffitem,group,prediction,label,probability\r\n\r\n a ,env-b, 0.5 ,1,0.5\r\n"b, quoted","env-a",0.75,,"1"\r\n"c\nd",env-b,0.125,0,0.25\r\n';
    const g = await read('b.csv', text);
    expect(plain(g)).toEqual([
      { group: 'env-a', prediction: [0.75], label: [null], probability: [1] },
      { group: 'env-b', prediction: [0.5, 0.125], label: [1, 0], probability: [0.5, 0.25] },
    ]);
  });

  it('errors name the line and the problem', async () => {
    await expectErrors([
      ['c.csv', 'item,label\na,1\n', 'c.csv line 1: expected a CSV header with columns item, prediction'],
      ['d.csv', 'item,prediction,label\na,0.5,1\nb,1.5,0\n', 'd.csv line 3: expected "prediction" to be a number in [0, 1], got "1.5"'],
      [
        'e.csv',
        'item,prediction,label\na,0.5,yes\n',
        'e.csv line 2: expected "label" to be a number in [0, 1] (or empty when not reviewed), got "yes"',
      ],
      ['f.csv', 'item,prediction,label\na,0.5,1\nb,0.5\n', 'f.csv line 3: expected 3 fields (item, prediction, label), got 2'],
      [
        'g.csv',
        'item,prediction,group\na,0.5,x\nb,0.5,y\n\na,0.7,x\n',
        'g.csv line 5: item "a" appears twice in group "x" (first on line 2)',
      ],
      [
        'h.csv',
        'item,prediction,probability\na,0.5,0.2\nb,0.5,\n',
        'h.csv line 3: no probability here but the other items have one (give every item a probability or none)',
      ],
      ['i.csv', 'item,prediction,probability\na,0.5,0\n', 'i.csv line 2: expected "probability" to be a number in (0, 1]'],
      ['j.csv', 'item,prediction\n,0.5\n', 'j.csv line 2: expected an item id, got an empty field'],
      ['k.csv', 'item,prediction\n"a,0.5\n', 'k.csv line 2: a quoted CSV field is never closed'],
      ['l.csv', 'item,prediction\n', 'l.csv: no items found'],
    ]);
    await expect(readEstimateFile(at('absent.csv'), 'absent.csv')).rejects.toThrow('Cannot read absent.csv: no such file');
  });

  it('the same id in two groups is two items', async () => {
    const g = await read('m.csv', 'item,prediction,group\na,0.5,x\na,0.5,y\n');
    expect(g.map((x) => x.group)).toEqual(['x', 'y']);
  });
});

describe('readEstimateFile: JSONL', () => {
  it('reads numbers, booleans and null labels, numeric ids and groups', async () => {
    const text = [
      '{"item": 1, "prediction": 0.9, "label": true, "group": "g"}',
      '',
      '{"item": "2", "prediction": 0.1, "label": null, "group": "g"}',
      '{"item": 3, "prediction": 0.3, "label": false}',
    ].join('\n');
    expect(plain(await read('a.jsonl', text))).toEqual([
      { group: null, prediction: [0.3], label: [0], probability: null },
      { group: 'g', prediction: [0.9, 0.1], label: [1, null], probability: null },
    ]);
  });

  it('errors name the line', async () => {
    await expectErrors([
      [
        'b.jsonl',
        '{"item": "a", "prediction": 0.5}\n{"item": "a", "prediction": 0.6}\n',
        'b.jsonl line 2: item "a" appears twice (first on line 1)',
      ],
      ['c.jsonl', '{"item": "a", "prediction": "0.5"}\n', 'c.jsonl line 1: expected "prediction" to be a number in [0, 1], got "0.5"'],
      ['d.jsonl', '{"item": "a", "prediction": 0.5\n', 'd.jsonl line 1: expected a JSON object with "item" and "prediction"'],
      ['e.jsonl', '{"item": "a", "prediction": 0.5, "label": 2}\n', 'e.jsonl line 1: expected "label" to be 0, 1'],
    ]);
  });
});

describe('parseDecimal', () => {
  it('gives the same double as Number() on plain decimals, exponents and odd forms', () => {
    const random = mulberry32(3);
    const samples = [
      '0',
      '1',
      '0.5',
      '.5',
      '5.',
      '-0.25',
      '+0.125',
      '1e-3',
      '2.5E+2',
      '0.1000000000000000055511151231257827',
      '123456789012345678',
      ' 0.3 ',
    ];
    for (let k = 0; k < 20_000; k++)
      samples.push(random().toFixed(1 + Math.floor(random() * 16)), String(random()), random().toExponential(10));
    const wrong = samples.filter((s) => {
      const buf = Buffer.from(s);
      return !Object.is(parseDecimal(buf, 0, buf.length), Number(s));
    });
    expect(wrong).toEqual([]);
  });

  it('NaN for what is not a decimal number', () => {
    for (const s of ['', 'abc', '0x10', '1e', '--1', '1.2.3', 'Infinity', '1,5']) {
      const buf = Buffer.from(s);
      expect(parseDecimal(buf, 0, buf.length)).toBeNaN();
    }
  });
});
