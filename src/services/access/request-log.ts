/**
 * The request log: every /v1 request of a known key (time, key prefix, method,
 * path with its query, status, error code, duration, Request-Id), kept per
 * organisation for 7 days or 10 000 requests, whichever ends first (less when
 * the organisation's settings say so).
 *
 * Recording stays off the request's path: a request adds its fields to an
 * in-memory batch packed in buffers (request-batch.ts; bounded: beyond it,
 * entries are dropped and counted, never waited for), and the batch is
 * appended ten times a second: on SQLite, whole, by a thread of its own; where
 * the append holds the event loop, in transactions of a few hundred entries
 * with the event loop free between them (KeyLifeStore.appendLimits).
 * Scaled out, every instance appends to the one PostgreSQL table.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Organisation } from '../../domain/access.ts';
import { InvalidRequest } from '../../errors.ts';
import { flushUntilWritten } from '../../store/flush-until-written.ts';
import type { KeyLifeStore, LoggedRequest, RequestLogEntry } from '../../store/key-life-store.ts';
import { RequestBatch } from '../../domain/request-batch.ts';
import { holdsKeyShape, mayHoldKeyShape } from '../../domain/key-shape.ts';
import type { AdminDeps } from './admin.ts';

const DAY_MS = 86_400_000;
export const MAX_PENDING = 20_000;
const PRUNE_EVERY_MS = 60_000;
/**
 * How often the batch is written: ten times a second rather than once. On SQLite the writer
 * thread then takes its share of a core in slices of a few milliseconds instead of one burst a
 * second that a tenth of each second's requests waited behind (p99 of cached single gets 6.0–6.2
 * ms against 7.6–7.9 ms, bench/HISTORY.md, "2026-12-01"); a crash loses at most 0.1 s of the log.
 */
export const FLUSH_INTERVAL_MS = 100;

/** An entry as recorded on the hot path: the time as a number, turned into text only when written. */
export interface PendingRequest extends Omit<RequestLogEntry, 'at' | 'path'> {
  atMs: number;
  /** The request's URL, redacted (loggedPath) as it is recorded: nearly every URL costs a regular-expression test and a substring test. */
  url: string;
}

export class RequestLogRecorder {
  private readonly store: KeyLifeStore;
  private readonly now: () => number;
  private pending = new RequestBatch();
  private readonly orgsSincePrune = new Set<string>();
  private lastPrune = 0;
  private readonly timer: NodeJS.Timeout;
  /** Entries dropped because the batch was full (the database could not keep up). */
  dropped = 0;

  constructor(store: KeyLifeStore, options: { now: () => number; flushIntervalMs?: number; onFlushError?: (error: unknown) => void }) {
    this.store = store;
    this.now = options.now;
    this.timer = setInterval(() => {
      // A flush still under way (the database busy, the writes slow) is not joined by another one each tick.
      if (this.running === null) this.flush().catch(options.onFlushError ?? (() => undefined));
    }, options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** The flush under way, and the one flush waiting to start after it. */
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  record(e: PendingRequest): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    this.pending.add({
      orgId: e.orgId,
      keyId: e.keyId,
      keyPrefix: e.keyPrefix,
      atMs: e.atMs,
      method: e.method,
      path: loggedPath(e.url),
      status: e.status,
      errorCode: e.errorCode,
      durationMs: e.durationMs,
      requestId: e.requestId,
    });
  }

  /**
   * Writes what was recorded before the call. Flushes run one after another
   * (a flush that found the batch already taken by the one under way would
   * otherwise return before that batch was written), and at most one waits:
   * every call made while one waits shares it, as it starts after them all.
   */
  flush(): Promise<void> {
    if (this.queued !== null) return this.queued;
    if (this.running === null) return this.start();
    const queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<void> {
    const run = this.flushNow().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** No more flushes on the timer (close() still writes what is pending): before the other recorders' last writes, so that they do not wait on this one's. */
  stop(): void {
    clearInterval(this.timer);
  }

  private async flushNow(): Promise<void> {
    if (this.pending.length > 0) {
      const batch = this.pending;
      // Room for as many as this flush took: the next one grows no arrays (copying them) on the way.
      this.pending = new RequestBatch(Math.min(batch.length, MAX_PENDING));
      let written = 0;
      try {
        while (written < batch.length) {
          // Read for each part: a writer thread that died during the flush leaves the rest to the event loop's slices.
          const end = batch.sliceEnd(written, this.store.appendLimits);
          // A batch that is one slice is appended as it is, not copied into another.
          const slice = written === 0 && end === batch.length ? batch : batch.slice(written, end);
          const ok = await this.store.appendRequests(slice);
          if (!ok) break;
          for (const orgId of slice.orgIds()) this.orgsSincePrune.add(orgId);
          written += slice.length;
          // On the event loop (SQLite without its writer thread), a second's requests in one transaction held every other request for tens of ms.
          if (written < batch.length) await nextTurn();
        }
      } finally {
        // Busy (an import holds the lock) or failed: keep what was not written, ahead of what arrived meanwhile, within the bound.
        if (written < batch.length) {
          const kept = batch.length - written + this.pending.length;
          this.pending = batch.slice(written).concat(this.pending, MAX_PENDING);
          // Beyond the bound, the newest are dropped, and counted as dropped like those record() turns away.
          this.dropped += kept - this.pending.length;
        }
      }
    }
    const now = this.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS && this.orgsSincePrune.size > 0) {
      this.lastPrune = now;
      const orgs = [...this.orgsSincePrune];
      this.orgsSincePrune.clear();
      for (const orgId of orgs) await this.prune(orgId);
    }
  }

  /** Applies the organisation's retention now (also from the dashboard, after its settings change). */
  async prune(orgId: string): Promise<void> {
    const s = await this.store.getOrgSettings(orgId);
    await this.store.pruneRequests(orgId, new Date(this.now() - s.requestLogDays * DAY_MS).toISOString(), s.requestLogMax);
  }

  async close(): Promise<void> {
    this.stop();
    await flushUntilWritten(
      () => this.flush(),
      () => this.pending.length > 0,
    );
  }
}

/**
 * The path with its query as the log keeps it: any name or value holding a
 * key-shaped text is replaced by [REDACTED], and so are the values of secret
 * parameters (the dashboard's one-time link tokens).
 */
export function loggedPath(url: string): string {
  // Nearly every URL holds nothing to redact: no key prefix (as it is or percent-encoded), no token.
  if (!mayHoldKeyShape(url) && !url.includes('token')) return url;
  const q = url.indexOf('?');
  const redact = (part: string) => (holdsKeyShape(part) ? '[REDACTED]' : part);
  const path = url
    .slice(0, q === -1 ? url.length : q)
    .split('/')
    .map(redact)
    .join('/');
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return redact(pair);
      const name = pair.slice(0, eq);
      return `${redact(name)}=${name === 'token' ? '[REDACTED]' : redact(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

export const STATUS_CLASSES = [2, 4, 5] as const;
const PAGE_SIZE = 50;
const CURSOR = /^rl1\.(\d{1,16})$/;

export interface RequestLogFilter {
  keyId?: string;
  /** '2xx', '4xx' or '5xx'. */
  status?: string;
  requestId?: string;
  cursor?: string;
}

export interface RequestLogPage {
  entries: LoggedRequest[];
  nextCursor: string | null;
}

/** One page of the organisation's request log, newest first. */
export async function pageRequestLog(deps: AdminDeps, org: Organisation, filter: RequestLogFilter, limit = PAGE_SIZE): Promise<RequestLogPage> {
  let statusClass: number | null = null;
  if (filter.status) {
    const m = /^([245])xx$/.exec(filter.status);
    if (!m) throw new InvalidRequest('status must be 2xx, 4xx or 5xx');
    statusClass = Number(m[1]);
  }
  let before: number | null = null;
  if (filter.cursor) {
    const m = CURSOR.exec(filter.cursor);
    if (!m) throw new InvalidRequest('this page link is not valid; start again from the first page');
    before = Number(m[1]);
  }
  const { entries, hasMore } = await deps.store.keyLife.pageRequests({
    orgId: org.id,
    keyId: filter.keyId || null,
    statusClass,
    requestId: filter.requestId?.trim() || null,
    before,
    limit,
  });
  return { entries, nextCursor: hasMore && entries.length > 0 ? `rl1.${entries.at(-1)!.id}` : null };
}
