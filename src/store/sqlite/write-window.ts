/**
 * Cross-process freshness on one SQLite file, paid once per window instead of
 * once per request.
 *
 * `PRAGMA data_version` tells a connection that another one has committed, but
 * under load it costs as much as the record read (23–37 µs). So a reading
 * process runs it at most once per FRESHNESS_WINDOW_MS and every request in
 * that window shares the answer; and every writer (an import, a revocation, a
 * plan change, in any process) returns only SETTLE_MS after its commit. A
 * request sent after the writer returned is looked at more than one window
 * after the commit: either the shared check ran after the commit and saw it,
 * or it is older than a window and is run again. Both sides measure with the
 * monotonic clock (CLOCK_MONOTONIC, one clock for every process on the
 * machine that shares the file).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How long one data_version check is trusted, in ms. */
export const FRESHNESS_WINDOW_MS = 2;
/** How long a writer waits after its commit before it returns: a window and a margin. */
export const SETTLE_MS = FRESHNESS_WINDOW_MS + 1;

export class WindowedVersion {
  private readonly read: () => number;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private external = Number.NaN;
  private generation = 0;

  /** read: the external version (data_version), which moves when another connection commits. */
  constructor(read: () => number) {
    this.read = read;
  }

  /** Changes whenever another process committed (seen within a window) or bump() was called. */
  current(): number {
    const now = performance.now();
    if (now - this.checkedAt >= FRESHNESS_WINDOW_MS) {
      // The time before the read: the window closes early rather than late.
      this.checkedAt = now;
      const external = this.read();
      if (external !== this.external) {
        this.external = external;
        this.generation++;
      }
    }
    return this.generation;
  }

  /** After a commit of this process on a connection of its own (an import): data_version would not show it. */
  bump(): void {
    this.generation++;
  }
}

/** Resolves once every process reading the file sees what was committed before committedAt (performance.now()). */
export async function settle(committedAt = performance.now()): Promise<void> {
  for (;;) {
    const left = committedAt + SETTLE_MS - performance.now();
    if (left <= 0) return;
    await sleep(Math.ceil(left));
  }
}
