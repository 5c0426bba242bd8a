import { describe, expect, it } from 'vitest';
import { revealedPaths } from './plot-reveal';

describe('revealed plot paths', () => {
  // y = x on 0..10, sampled at every integer, with a break between 6 and 7
  const points: Array<[number, number] | null> = [0, 1, 2, 3, 4, 5, 6].map((v) => [v, v] as [number, number]);
  const plot = { xFrom: 0, xTo: 10, points: [...points, null, ...[7, 8, 9, 10].map((v) => [v, v] as [number, number])] };
  const id = (v: number) => v;
  const coords = (paths: string[]) =>
    paths.map((d) => [...d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]));

  it('draws nothing before the pen starts and the whole curve, broken where it breaks, at the end', () => {
    expect(revealedPaths(plot, 0, id, id)).toEqual([]);
    const all = coords(revealedPaths(plot, 1, id, id));
    expect(all).toEqual([[0, 1, 2, 3, 4, 5, 6].map((v) => [v, v]), [7, 8, 9, 10].map((v) => [v, v])]);
  });

  it('ends the line where the pen is, on the segment it crosses', () => {
    const half = coords(revealedPaths(plot, 0.35, id, id));
    expect(half).toEqual([
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
        [3.5, 3.5],
      ],
    ]);
  });

  it('keeps the pieces already drawn the same strings frame after frame (only the piece at the pen changes)', () => {
    const long = { xFrom: 0, xTo: 1, points: Array.from({ length: 101 }, (_, i) => [i / 100, Math.sin(i / 10)] as [number, number]) };
    const early = revealedPaths(long, 0.5, id, id);
    const later = revealedPaths(long, 0.8, id, id);
    expect(early.length).toBeGreaterThan(2);
    // every piece of the earlier frame but the one at the pen is in the later frame unchanged
    expect(later.slice(0, early.length - 1)).toEqual(early.slice(0, -1));
    // consecutive pieces join: each starts where the previous one ended
    for (let k = 1; k < later.length; k++) expect(coords([later[k]!])[0]![0]).toEqual(coords([later[k - 1]!])[0]!.at(-1));
  });
});
