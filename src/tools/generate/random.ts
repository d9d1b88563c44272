/**
 * Deterministic randomness for synthetic data and load: a hash of integers
 * (to seed a generator per record) and mulberry32, a 32-bit state PRNG. The
 * generator and the bench draw from this one source.
 */

/** murmur3's 32-bit finaliser over a running hash: good avalanche, no state. */
export function mix(h: number, value: number): number {
  h = Math.imul(h ^ value, 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  h = Math.imul(h, 0x1b873593);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function hash(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = mix(h, v);
  return h;
}

/** mulberry32: a 32-bit state PRNG, enough for synthetic text. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}
