/**
 * The shared limiter for many instances: one Lua script per request checks
 * the access epoch (revocation), then the monthly allowance, then the minute
 * rate, and counts the request in both, atomically for every instance.
 *
 * Durability: every second each instance copies the counters it touched from
 * Redis to PostgreSQL (largest value wins), so losing Redis loses at most a
 * second of counts; a month counter Redis no longer has is seeded from
 * PostgreSQL before it is used.
 *
 * Outage: while Redis cannot be reached, each instance decides alone with a
 * FallbackLimiter (logged once, counted per request through onRedisError and
 * the decision's backend), and adds what it admitted to Redis once it is back.
 */
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Plan } from '../domain/access.ts';
import type { CounterRow, CounterStore } from '../store/access-store.ts';
import { FallbackLimiter, type Admitted } from './fallback-limiter.ts';
import { REDIS_TICK_MS, type AccessCheck, type LimitDecision, type Limiter } from './limiter.ts';
import { decisionFrom, defineScripts, staleDecision, type ScriptCommands } from './redis-scripts.ts';
import { givenBackWindow, windowsAt, type Windows } from '../domain/windows.ts';

export interface RedisLimiterOptions {
  url: string;
  /** Prefix of every key. */
  prefix: string;
  /** Seeds counters Redis lost and keeps the mirror of Redis's counts. */
  usage: CounterStore;
  /** Where PostgreSQL's access version is read (settings.access_version). */
  settings: { getSetting(key: string): Promise<string | null> };
  /** Mirror, access poll and recovery probe interval, in ms. */
  tickMs?: number;
  /** A Redis command fails: called for every failure (metrics). */
  onRedisError?: (error: unknown) => void;
  /** Redis went away or came back, and other things an operator should read. */
  onWarning?: (message: string, error?: unknown) => void;
  /** A background write to PostgreSQL failed; retried on the next tick. */
  onFlushError?: (error: unknown) => void;
  /** Redis went away (false) or came back (true). */
  onHealth?: (healthy: boolean) => void;
}

/** Counts of an organisation's windows, as PostgreSQL holds them, for a Redis that lost them. */
interface Seed {
  month: number;
  givenBack: number;
  minute: number;
}

const EPOCH_TTL_S = 7 * 86_400;
const MINUTE_TTL_S = 120;
const MONTH_GRACE_S = 86_400;
/** How long Redis remembers an applied replay (a retry comes within seconds). */
const REPLAY_MARKER_TTL_S = 86_400;

/** A random starting epoch: a recreated epoch never equals one an instance has seen. */
const freshEpoch = () => String(randomInt(1, 2 ** 47));

export class RedisLimiter implements Limiter {
  private readonly redis: Redis & ScriptCommands;
  private readonly o: RedisLimiterOptions;
  private readonly timer: NodeJS.Timeout;
  private healthy = false;
  /** Whether an outage was announced (so its end is announced too). */
  private wasDown = false;
  private closed = false;
  /** The access epoch last seen, under a local id that changes with it and on every reconnection. */
  private view: { id: number; epoch: string } | null = null;
  private views = 0;
  private fallback: FallbackLimiter | null = null;
  private replaying: Admitted[] = [];
  private readonly seeds = new Map<string, Promise<Seed>>();
  /** The copy to PostgreSQL in progress, if any. */
  private mirroring: Promise<void> | null = null;
  /** Windows counted since the last mirror, by `org month`. */
  private dirty = new Map<string, { orgId: string; month: string; minute: string }>();

  constructor(options: RedisLimiterOptions) {
    this.o = options;
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      // While disconnected, fail at once (and decide with the fallback) instead of queueing.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1_000,
      commandTimeout: 1_000,
      retryStrategy: (times) => Math.min(100 * times, 1_000),
    }) as Redis & ScriptCommands;
    defineScripts(this.redis);
    this.redis.on('error', (error) => this.markDown(error));
    this.redis.on('close', () => this.markDown(new Error('connection to Redis closed')));
    this.redis.on('ready', () => void this.recover().catch((error: unknown) => this.o.onWarning?.('could not resume on Redis', error)));
    this.timer = setInterval(() => void this.tick().catch((error: unknown) => this.o.onFlushError?.(error)), options.tickMs ?? REDIS_TICK_MS);
    this.timer.unref();
  }

  /** Connects, waiting at most waitMs; without Redis the instance starts on the fallback. */
  async start(waitMs = 2_000): Promise<void> {
    const connected = this.redis.connect().then(
      () => true,
      () => false,
    );
    const ok = await Promise.race([connected, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs).unref())]);
    if (!ok) {
      this.wasDown = true;
      this.o.onHealth?.(false);
      this.o.onWarning?.('Redis is not reachable: limits are enforced per instance until it is');
    } else await this.recover();
  }

  get isHealthy(): boolean {
    return this.healthy;
  }

  /** For the key cache: NaN while no cached lookup can be vouched for (Redis down or not yet seen). */
  accessVersion(): number {
    return this.view?.id ?? Number.NaN;
  }

  consume(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision> {
    return this.decide(orgId, plan, nowMs, true, access);
  }

  peek(orgId: string, plan: Plan, nowMs: number, access?: AccessCheck): Promise<LimitDecision> {
    return this.decide(orgId, plan, nowMs, false, access);
  }

  private async decide(orgId: string, plan: Plan, nowMs: number, consume: boolean, access?: AccessCheck): Promise<LimitDecision> {
    const w = windowsAt(nowMs);
    const checked = access !== undefined && !Number.isNaN(access.version);
    // A lookup cached under an earlier view (before a reconnection or an epoch change) is void.
    if (checked && (this.view === null || access.version !== this.view.id)) return staleDecision(plan, w);
    if (!this.healthy) return this.fallbackDecide(orgId, plan, nowMs, consume);
    // The epoch of the caller's version, taken now: the view may change while a seed loads.
    const expected = checked ? this.view!.epoch : '';
    const monthKey = this.key(`c:${orgId}:${w.month}`);
    const givenBackKey = this.key(`c:${orgId}:${w.givenBack}`);
    const minuteKey = this.key(`c:${orgId}:${w.minute}`);
    const monthTtl = Math.ceil((w.monthResetsAt.getTime() - nowMs) / 1000) + MONTH_GRACE_S;
    let seed: Seed | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      let reply: [string, string, number, number, number];
      try {
        reply = await this.redis.cbLimit(
          this.key('access:epoch'),
          monthKey,
          givenBackKey,
          minuteKey,
          expected,
          freshEpoch(),
          EPOCH_TTL_S,
          plan.monthlyQuota ?? -1,
          plan.ratePerMinute,
          consume ? 1 : 0,
          monthTtl,
          MINUTE_TTL_S,
          seed ? seed.month : '',
          seed ? seed.minute : 0,
          seed ? seed.givenBack : 0,
        );
      } catch (error) {
        this.markDown(error);
        return this.fallbackDecide(orgId, plan, nowMs, consume);
      }
      const [status, epoch, refused, month, minute] = reply;
      this.observeEpoch(epoch);
      if (status === 'stale') return staleDecision(plan, w);
      if (status === 'seed') {
        seed = await this.seedFor(orgId, w);
        continue;
      }
      if (consume && refused === 0) {
        const id = `${orgId} ${w.month}`;
        this.dirty.set(id, { orgId, month: w.month, minute: w.minute });
      }
      return decisionFrom(plan, w, refused, month, minute);
    }
    throw new Error('the month counter vanished from Redis three times in a row');
  }

  /**
   * Gives a request back to the month it was counted in. While Redis is
   * unreachable the fallback takes it, to be given back in Redis later; a
   * month Redis no longer has (lost while the request ran) keeps it.
   */
  async giveBack(orgId: string, countedAtMs: number): Promise<void> {
    const w = windowsAt(countedAtMs);
    if (this.healthy) {
      try {
        const monthTtl = Math.ceil((w.monthResetsAt.getTime() - countedAtMs) / 1000) + MONTH_GRACE_S;
        if ((await this.redis.cbGiveBack(this.key(`c:${orgId}:${w.month}`), this.key(`c:${orgId}:${w.givenBack}`), 1, Math.max(1, monthTtl))) >= 0) {
          this.dirty.set(`${orgId} ${w.month}`, { orgId, month: w.month, minute: w.minute });
        }
        return;
      } catch (error) {
        this.markDown(error);
      }
    }
    this.fallback ??= new FallbackLimiter(this.o.usage);
    await this.fallback.giveBack(orgId, countedAtMs);
  }

  /** Counts of a window from PostgreSQL, loaded once per organisation and window however many requests wait. */
  private seedFor(orgId: string, w: Windows): Promise<Seed> {
    const id = `${orgId} ${w.month} ${w.minute}`;
    let pending = this.seeds.get(id);
    if (!pending) {
      pending = this.o.usage
        .loadCounters(orgId, [w.month, w.givenBack, w.minute])
        .then((c) => ({ month: c.get(w.month) ?? 0, givenBack: c.get(w.givenBack) ?? 0, minute: c.get(w.minute) ?? 0 }));
      this.seeds.set(id, pending);
      pending.finally(() => this.seeds.delete(id)).catch(() => undefined);
    }
    return pending;
  }

  private fallbackDecide(orgId: string, plan: Plan, nowMs: number, consume: boolean): Promise<LimitDecision> {
    this.fallback ??= new FallbackLimiter(this.o.usage);
    return this.fallback.decide(orgId, plan, nowMs, consume);
  }

  private observeEpoch(epoch: string): void {
    if (this.healthy && this.view?.epoch !== epoch) this.view = { id: ++this.views, epoch: String(epoch) };
  }

  private key(name: string): string {
    return `${this.o.prefix}${name}`;
  }

  private markDown(error: unknown): void {
    if (this.closed) return;
    this.o.onRedisError?.(error);
    this.view = null;
    if (!this.healthy) return;
    this.healthy = false;
    this.wasDown = true;
    this.o.onHealth?.(false);
    this.o.onWarning?.('Redis is unreachable: limits are enforced per instance until it is back', error);
  }

  /**
   * Back in service: a new view (every cached lookup is checked again), then
   * what the fallback admitted. Reported back (the fallback gauge at 0) only
   * after that replay has run (one that fails is tried again at each tick):
   * reported before it, a reader of the gauge could count the month while
   * Redis still lacked the outage's requests.
   */
  private async recover(): Promise<void> {
    if (this.healthy || this.closed || this.redis.status !== 'ready') return;
    this.view = null;
    this.healthy = true;
    if (this.fallback) {
      const fallback = this.fallback;
      this.fallback = null;
      this.replaying.push(...(await fallback.drain()));
    }
    await this.replay();
    // Down again meanwhile: markDown has reported it.
    if (!this.healthy) return;
    this.o.onHealth?.(true);
    if (this.wasDown) this.o.onWarning?.('Redis is reachable again: limits are shared by every instance again');
    this.wasDown = false;
  }

  private async replay(): Promise<void> {
    while (this.replaying.length > 0 && this.healthy) {
      const a = this.replaying[0]!;
      const monthKey = this.key(`c:${a.orgId}:${a.month}`);
      const givenBack = givenBackWindow(a.month);
      const givenBackKey = this.key(`c:${a.orgId}:${givenBack}`);
      const [year, month] = a.month.slice('month:'.length).split('-').map(Number) as [number, number];
      const expiresIn = Math.max(0, Math.ceil((Date.UTC(year, month, 1) - Date.now()) / 1000)) + MONTH_GRACE_S;
      try {
        const marker = this.key(`replayed:${a.id}`);
        if ((await this.redis.cbReplay(monthKey, givenBackKey, marker, a.count, '', 0, expiresIn, a.givenBack, REPLAY_MARKER_TTL_S)) === -1) {
          const stored = await this.o.usage.loadCounters(a.orgId, [a.month, givenBack]);
          await this.redis.cbReplay(
            monthKey,
            givenBackKey,
            marker,
            a.count,
            stored.get(a.month) ?? 0,
            stored.get(givenBack) ?? 0,
            expiresIn,
            a.givenBack,
            REPLAY_MARKER_TTL_S,
          );
        }
        this.replaying.shift();
        this.dirty.set(`${a.orgId} ${a.month}`, { orgId: a.orgId, month: a.month, minute: '' });
      } catch (error) {
        this.o.onFlushError?.(error);
        return;
      }
    }
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    if (!this.healthy) {
      // Connected is not enough (a Redis that hangs stays connected): it must answer.
      if (
        this.redis.status === 'ready' &&
        (await this.redis.ping().then(
          () => true,
          () => false,
        ))
      )
        await this.recover();
      return;
    }
    await this.replay();
    try {
      await this.mirror();
    } catch (error) {
      this.o.onFlushError?.(error);
    }
    await this.accessChanged();
  }

  /** Copies the counters this instance touched from Redis to PostgreSQL. */
  async flush(): Promise<void> {
    if (this.healthy) await this.mirror();
  }

  /**
   * One copy at a time, each after the one before: a flush() that found the
   * counts already taken by the tick's copy must still return only once
   * they are written (the dashboard and the usage report read them next).
   */
  private mirror(): Promise<void> {
    const previous = this.mirroring;
    const run = (previous ? previous.catch(() => undefined) : Promise.resolve()).then(() => this.mirrorOnce());
    this.mirroring = run;
    run
      .finally(() => {
        if (this.mirroring === run) this.mirroring = null;
      })
      .catch(() => undefined);
    return run;
  }

  private async mirrorOnce(): Promise<void> {
    if (this.dirty.size === 0) return;
    const entries = [...this.dirty.values()];
    this.dirty = new Map();
    try {
      const keys = entries.flatMap((e) => [
        this.key(`c:${e.orgId}:${e.month}`),
        this.key(`c:${e.orgId}:${givenBackWindow(e.month)}`),
        this.key(`c:${e.orgId}:${e.minute || 'none'}`),
      ]);
      let values: (string | null)[];
      try {
        values = await this.redis.mget(keys);
      } catch (error) {
        this.markDown(error);
        throw error;
      }
      const rows: CounterRow[] = [];
      entries.forEach((e, i) => {
        const [month, givenBack, minute] = [values[3 * i] ?? null, values[3 * i + 1] ?? null, values[3 * i + 2] ?? null];
        if (month !== null) rows.push({ orgId: e.orgId, window: e.month, count: Number(month) });
        if (givenBack !== null) rows.push({ orgId: e.orgId, window: givenBackWindow(e.month), count: Number(givenBack) });
        if (e.minute !== '' && minute !== null) rows.push({ orgId: e.orgId, window: e.minute, count: Number(minute) });
      });
      const keep = entries.map((e) => e.minute).filter((m) => m !== '');
      if (rows.length > 0 && !(await this.o.usage.writeCounters(rows, keep))) throw new Error('usage store busy; counts kept for the next tick');
    } catch (error) {
      for (const e of entries) if (!this.dirty.has(`${e.orgId} ${e.month}`)) this.dirty.set(`${e.orgId} ${e.month}`, e);
      throw error;
    }
  }

  /**
   * Pushes PostgreSQL's access version to Redis: after a revocation or plan
   * change (awaited by the admin operation, so it holds before the call
   * returns), and every tick, for changes made by a process without Redis.
   * Never throws; returns whether Redis was told.
   */
  async accessChanged(): Promise<boolean> {
    let version: string;
    try {
      version = (await this.o.settings.getSetting('access_version')) ?? '0';
    } catch (error) {
      this.o.onFlushError?.(error);
      return false;
    }
    try {
      this.observeEpoch(await this.redis.cbSyncAccess(this.key('access:pgversion'), this.key('access:epoch'), version, freshEpoch(), EPOCH_TTL_S));
      return true;
    } catch (error) {
      this.markDown(error);
      return false;
    }
  }

  /** Reachability for /readyz, bounded by the command timeout. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.flush();
    } catch (error) {
      this.o.onFlushError?.(error);
    }
    this.closed = true;
    await this.fallback?.drain();
    this.fallback = null;
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
