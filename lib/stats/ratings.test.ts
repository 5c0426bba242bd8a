import { describe, expect, it } from 'vitest';
import { encodeRatings, type Rating } from './ratings';

function units(data: ReturnType<typeof encodeRatings>) {
  // unit label -> [rater label, value] pairs, as encoded
  const out: Record<string, [string | number, string | number][]> = {};
  data.units.forEach((u, i) => {
    out[String(u)] = [];
    for (let p = data.unitStart[i]!; p < data.unitStart[i + 1]!; p++) {
      out[String(u)]!.push([data.raters[data.rater[p]!]!, data.categories[data.code[p]!]!]);
    }
  });
  return out;
}

describe('encodeRatings', () => {
  const contiguous: Rating[] = [
    { unit: 'x', rater: 'a', value: 3 },
    { unit: 'x', rater: 'b', value: 1 },
    { unit: 'y', rater: 'a', value: 'z' },
  ];
  const interleaved: Rating[] = [
    { unit: 'x', rater: 'a', value: 3 },
    { unit: 'y', rater: 'a', value: 'z' },
    { unit: 'x', rater: 'b', value: 1 },
  ];

  it('encodes units in either order to the same grouping, values sorted', () => {
    const a = encodeRatings(contiguous);
    const b = encodeRatings(interleaved);
    expect(a.categories).toEqual([1, 3, 'z']);
    expect(a.numeric).toBeNull();
    expect(units(a)).toEqual({
      x: [
        ['a', 3],
        ['b', 1],
      ],
      y: [['a', 'z']],
    });
    expect(units(b)).toEqual(units(a));
    expect(Array.from(b.unitStart)).toEqual([0, 2, 3]);
  });

  it('treats 1 and "1" as different keys and handles large and negative numbers', () => {
    const data = encodeRatings([
      { unit: 1, rater: 0, value: -2.5 },
      { unit: '1', rater: 0, value: 7 },
      { unit: 2 ** 40, rater: 1e6, value: 1024 },
      { unit: 2 ** 40, rater: 0, value: 1024 },
      { unit: -3, rater: 1e6, value: -2.5 },
    ]);
    expect(data.units).toEqual([1, '1', 2 ** 40, -3]);
    expect(data.raters).toEqual([0, 1e6]);
    expect(Array.from(data.numeric!)).toEqual([-2.5, 7, 1024]);
  });

  it('rejects a second rating of a unit by the same rater, in both layouts', () => {
    const message = 'Unit "x" has more than one rating from rater "a"; each rater rates a unit at most once';
    expect(() => encodeRatings([...contiguous.slice(0, 2), { unit: 'x', rater: 'a', value: 2 }])).toThrow(message);
    expect(() => encodeRatings([...interleaved, { unit: 'x', rater: 'a', value: 2 }])).toThrow(message);
  });

  it('rejects malformed fields with the rating number', () => {
    expect(() => encodeRatings([{ unit: 'x', rater: 'a', value: Number.NaN }])).toThrow(
      'Rating 1: value must be a string or a finite number',
    );
    expect(() => encodeRatings([contiguous[0]!, { unit: null as unknown as string, rater: 'a', value: 1 }])).toThrow(
      'Rating 2: unit must be a string or a finite number',
    );
  });
});
