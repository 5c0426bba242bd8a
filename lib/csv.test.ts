import { describe, expect, it } from 'vitest';
import { csvField, safeFileName, toCsv } from './csv';

describe('CSV', () => {
  it('quotes commas, quotes and newlines, and defuses formulas but not negative numbers', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['line\nbreak', null],
          [-0.25, '=SUM(A1)'],
          ['-3', '@cmd'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",\r\n-0.25,\'=SUM(A1)\r\n-3,\'@cmd\r\n');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('makes safe download names', () => {
    expect(safeFileName('Q3 "review" / batch')).toBe('Q3-review-batch');
    expect(safeFileName('***')).toBe('download');
  });
});
