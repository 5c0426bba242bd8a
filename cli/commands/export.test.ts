import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { fakeIo } from '../io-testing';

describe('witness export usage (no database needed)', () => {
  it.each([
    [['--out', 'x.jsonl'], /--format is required: one of trl-dpo, trl-kto, trl-reward, trl-sft, trl-prm, openrlhf, slime/],
    [['--format', 'parquet', '--out', 'x'], /--format must be one of .*; got "parquet"/],
    [['--format', 'trl-dpo'], /--out FILE is required/],
    [['--format', 'trl-dpo', '--out', 'x', '--split', 'test'], /--split must be train or eval/],
    [['--format', 'trl-dpo', '--out', 'x', '--min-agreement', '1.5'], /--min-agreement must be a number from 0 to 1; got "1.5"/],
    [['--format', 'trl-dpo', '--out', 'x', '--min-reviews', '2.5'], /--min-reviews must be an integer from 0 to 100/],
  ])('%j is a usage error (exit 2) that says what is wrong', async (args, message) => {
    const io = fakeIo();
    expect(await main(['export', ...args], io)).toBe(2);
    expect(io.err).toMatch(message);
  });

  it('--help lists the formats and the guard', async () => {
    const io = fakeIo();
    expect(await main(['export', '--help'], io)).toBe(0);
    expect(io.out).toContain('Formats: trl-dpo, trl-kto, trl-reward, trl-sft, trl-prm, openrlhf, slime');
    expect(io.out).toContain('an export that would include an eval task fails');
  });
});
