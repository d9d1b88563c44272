/**
 * Who may enter a full cache: a key asked for the second time within a recent
 * window. Remembers hashes of the keys it has seen in a fixed table (one
 * 32-bit hash a slot, a new key takes its slot over), so it allocates
 * nothing per request: under traffic spread evenly over a million records a
 * full cache is no longer rewritten on every request (the churn that makes
 * V8's heap grow, see byte-ring.ts), while a record or page asked for again
 * soon (the hot ones of real traffic) gets in on its second request.
 */

/** Slots of the table: the window is about this many distinct keys (256 KB). */
export const DOORKEEPER_SLOTS = 1 << 16;

/** FNV-1a over the UTF-16 code units, then mixed: a key's hash, never 0. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0 || 1;
}

export class Doorkeeper {
  readonly #seen: Uint32Array;
  readonly #mask: number;

  constructor(slots = DOORKEEPER_SLOTS) {
    this.#seen = new Uint32Array(slots);
    this.#mask = slots - 1;
  }

  /** True when key was seen within the window (then it is forgotten); else remembers it and says false. */
  secondSight(key: string): boolean {
    const h = keyHash(key);
    // The slot from the high bits, the check on all of them: another key in the same slot is told apart.
    const slot = (Math.imul(h, 0x9e3779b1) >>> 16) & this.#mask;
    if (this.#seen[slot] === h) {
      this.#seen[slot] = 0;
      return true;
    }
    this.#seen[slot] = h;
    return false;
  }

  clear(): void {
    this.#seen.fill(0);
  }
}
