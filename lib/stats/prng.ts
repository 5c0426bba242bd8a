/**
 * A small deterministic pseudo-random generator (mulberry32) so that every bootstrap and every
 * synthetic test data set is reproducible from a seed. Not cryptographic.
 */
export type Random = () => number;

export class Mulberry32 {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * One bootstrap resample: `draws` times, pick i uniformly in [0, groupOf.length) and add 1 to
   * counts[groupOf[i]]. Same stream as calling next() that often, with the generator inlined
   * (three times faster than a call per draw).
   */
  tally(groupOf: Int32Array, counts: Float64Array, draws: number): void {
    const n = groupOf.length;
    let s = this.state;
    for (let k = 0; k < draws; k++) {
      s = (s + 0x6d2b79f5) | 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      counts[groupOf[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)]!]!++;
    }
    this.state = s;
  }
}

/** Returns a generator of uniform floats in [0, 1) for a 32-bit integer seed. */
export function mulberry32(seed: number): Random {
  const generator = new Mulberry32(seed);
  return () => generator.next();
}
