/**
 * The buffers page bodies are written into, reused once the response that sent
 * one has closed.
 *
 * A page is sent as bytes (pagination.ts): a buffer of its own for each body
 * (23 KB for 50 codes, ~100 KB for 200 changes) is memory outside V8's heap,
 * freed only when V8 collects the Buffer, and glibc hands such sizes back to
 * the system and takes them again: under 200-change pages a server spent a
 * third more time in the kernel, faulting the pages of each new body in, than
 * with the bodies' memory kept (bench/HISTORY.md, "2026-12-06"). Here a body's
 * buffer goes back to a free list of its size class when its response closes
 * (by then the socket has written it, or dropped it), and the next body of
 * that size reuses it. The lists are bounded; bodies under MIN_POOLED bytes
 * take Node's own small-buffer pool.
 */
import type { ServerResponse } from 'node:http';

/** Smaller bodies come from Buffer.allocUnsafe (Node's pool below 4 KiB, a fresh buffer above). */
export const MIN_POOLED = 16 * 1024;
/** Larger bodies (a page of 200 long records) are not pooled. */
const MAX_POOLED = 1024 * 1024;
/** Free buffers kept, in bytes, over every size class. */
const MAX_FREE_BYTES = 8 * 1024 * 1024;

export class BodyBuffers {
  /** Free buffers by size class (a power of two from MIN_POOLED to MAX_POOLED). */
  readonly #free = new Map<number, Buffer[]>();
  #freeBytes = 0;

  /** Free bytes held for reuse. */
  get freeBytes(): number {
    return this.#freeBytes;
  }

  /**
   * A buffer of exactly size bytes, to be written whole and sent as the
   * response's body: it is taken back when the response closes.
   */
  acquire(size: number, response: ServerResponse): Buffer {
    if (size < MIN_POOLED || size > MAX_POOLED) return Buffer.allocUnsafe(size);
    const capacity = sizeClass(size);
    const whole = this.#free.get(capacity)?.pop();
    if (whole !== undefined) this.#freeBytes -= capacity;
    const buffer = whole ?? Buffer.allocUnsafeSlow(capacity);
    response.once('close', () => this.#release(buffer));
    return buffer.subarray(0, size);
  }

  #release(buffer: Buffer): void {
    const capacity = buffer.length;
    if (this.#freeBytes + capacity > MAX_FREE_BYTES) return;
    let list = this.#free.get(capacity);
    if (list === undefined) this.#free.set(capacity, (list = []));
    list.push(buffer);
    this.#freeBytes += capacity;
  }
}

function sizeClass(size: number): number {
  let capacity = MIN_POOLED;
  while (capacity < size) capacity *= 2;
  return capacity;
}
