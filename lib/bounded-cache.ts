/**
 * A least-recently-used cache bounded by entries and by a total weight (what each entry costs,
 * in the caller's unit: e.g. the bytes of heap it is estimated to hold). When either bound would
 * be passed, the least recently used entries are dropped first; an entry heavier than the whole
 * weight bound is not stored. Pure (no clock, no I/O); for values that are pure functions of
 * their key, so that sharing them between callers (users, requests) shows no one anything of
 * anyone else.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(readonly bounds: { maxEntries: number; maxWeight: number }) {
    if (!(bounds.maxEntries >= 1) || !(bounds.maxWeight >= 1))
      throw new Error(`BoundedCache: maxEntries and maxWeight must be >= 1 (got ${bounds.maxEntries}, ${bounds.maxWeight})`);
  }

  /** the value stored for `key` (now the most recently used), or undefined */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // most recently used last: a Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** stores `value` for `key` with `weight` (>= 0), dropping the least recently used entries past the bounds */
  set(key: string, value: V, weight: number): void {
    if (!(weight >= 0)) throw new Error(`BoundedCache: weight must be a number >= 0 (got ${weight})`);
    this.delete(key);
    if (weight > this.bounds.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.bounds.maxEntries && this.total <= this.bounds.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.weight;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** the sum of the stored entries' weights */
  get weight(): number {
    return this.total;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
