/**
 * client.changes.follow(): every change after a position, then the new ones
 * as they are recorded, for keeping a mirror in step.
 *
 * The feed is GET /v1/changes in its order, (effective_date, id). A cursor
 * exists only after a page that has more, so the last page can only be asked
 * for again: the follower keeps the cursor that produced the page it is on
 * (none for the first page) and the sort key of the last change it yielded,
 * asks for that page again when it polls, and yields only the changes after
 * that key. `position` packs the two, and the filters they belong to, in one
 * string to persist.
 *
 * Exactly once: a change is yielded when its key is above the last one
 * yielded, and keys only grow along the feed, so none comes twice; every
 * change recorded after the position sorts after it (imports are dated on or
 * after the latest recorded change, and ids grow in commit order), so none is
 * missed. The one exception is an import made with --allow-backdated: its
 * changes sort before changes already recorded, and a follower already past
 * that point never sees them (no cursor reader does).
 */
import { CodebookConnectionError, RateLimitExceededError, ServiceUnavailableError } from './errors.ts';
import { sleep } from './runtime.ts';
import type { Change, ListChangesParams, Page } from './types.ts';

export interface FollowOptions extends Omit<ListChangesParams, 'cursor'> {
  /**
   * Where to start: a `position` this method gave before, or a
   * `pagination.next_cursor` of `changes.list` with the same filters.
   * Omitted or null: the start of the feed.
   */
  since?: string | null;
  /** Stops following: the loop ends (no error) once the signal aborts. */
  signal?: AbortSignal;
  /** Changes per request (default 200, the most the API gives). */
  limit?: number;
  /** First wait, in ms, after the follower has caught up (default 2 000); doubles while nothing new comes. */
  pollIntervalMs?: number;
  /** Longest wait between polls, in ms (default 60 000). */
  maxPollIntervalMs?: number;
}

/** The last change yielded, by its place in the feed. */
interface FeedKey {
  date: string;
  id: number;
}

interface FeedPosition {
  /** The cursor of the page the follower is on; null for the first page. */
  cursor: string | null;
  last: FeedKey | null;
}

export type ChangePageFetcher = (params: ListChangesParams) => PromiseLike<Page<Change>>;

const POSITION_PREFIX = 'cbf1.';
/** What is not a filter of the feed: paging, the call's options, the follower's own. */
const NOT_FILTERS = new Set(['limit', 'cursor', 'signal', 'timeoutMs', 'maxRetries', 'since', 'pollIntervalMs', 'maxPollIntervalMs']);

function base64url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64url(text: string): string {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The filters as text, so that a position is refused with filters other than its own. */
function filterText(options: FollowOptions): string {
  return Object.entries(options)
    .filter(([name, value]) => !NOT_FILTERS.has(name) && value !== undefined && value !== null)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .sort()
    .join('&');
}

export function encodePosition(position: FeedPosition, filters: string): string {
  const { cursor, last } = position;
  return POSITION_PREFIX + base64url(JSON.stringify([cursor, last?.date ?? null, last?.id ?? null, filters]));
}

export function decodePosition(since: string | null | undefined, filters: string): FeedPosition {
  if (since === undefined || since === null) return { cursor: null, last: null };
  // Anything else is a cursor of changes.list; the service judges it.
  if (!since.startsWith(POSITION_PREFIX)) return { cursor: since, last: null };
  let parts: unknown;
  try {
    parts = JSON.parse(fromBase64url(since.slice(POSITION_PREFIX.length)));
  } catch {
    parts = null;
  }
  if (!Array.isArray(parts) || parts.length !== 4) throw new TypeError('since is not a position given by changes.follow().');
  const [cursor, date, id, madeWith] = parts as [unknown, unknown, unknown, unknown];
  if (madeWith !== filters) {
    throw new TypeError(
      `since was given by a follower with other filters (${String(madeWith) || 'none'}); follow with the same filters (${filters || 'none'}).`,
    );
  }
  const last = typeof date === 'string' && typeof id === 'number' ? { date, id } : null;
  return { cursor: typeof cursor === 'string' ? cursor : null, last };
}

function after(change: Change, last: FeedKey | null): boolean {
  if (last === null) return true;
  return change.effective_date > last.date || (change.effective_date === last.date && change.id > last.id);
}

/** Failures a follower outlasts: it waits and asks again, as it would for new changes. */
function transient(error: unknown): boolean {
  return (error instanceof CodebookConnectionError && error.retryable) || error instanceof ServiceUnavailableError || error instanceof RateLimitExceededError;
}

export class ChangeFeed implements AsyncIterable<Change> {
  readonly #fetchPage: ChangePageFetcher;
  readonly #options: FollowOptions;
  readonly #filters: string;
  #state: FeedPosition;
  #running = false;

  constructor(fetchPage: ChangePageFetcher, options: FollowOptions) {
    this.#fetchPage = fetchPage;
    this.#options = options;
    this.#filters = filterText(options);
    this.#state = decodePosition(options.since, this.#filters);
  }

  /**
   * Where the follower stands: after the last change it yielded (or where it
   * started). Persist it with what you did with that change, and pass it as
   * `since` to go on from there after a restart.
   */
  get position(): string {
    return encodePosition(this.#state, this.#filters);
  }

  [Symbol.asyncIterator](): AsyncGenerator<Change, void, undefined> {
    if (this.#running) throw new TypeError('This follower is already being iterated; start another with changes.follow().');
    this.#running = true;
    return this.#follow();
  }

  async *#follow(): AsyncGenerator<Change, void, undefined> {
    const { pollIntervalMs = 2_000, maxPollIntervalMs = 60_000, since: _since, ...params } = this.#options;
    const { signal } = params;
    const limit = params.limit ?? 200;
    let wait = pollIntervalMs;
    try {
      while (!signal?.aborted) {
        const { cursor, last } = this.#state;
        let page: Page<Change>;
        try {
          page = await this.#fetchPage({ ...params, limit, cursor: cursor ?? undefined });
        } catch (error) {
          if (signal?.aborted) return;
          if (!transient(error)) throw error;
          const asked = (error as { retryAfter?: number }).retryAfter;
          if (!(await sleep(Math.max(wait, (asked ?? 0) * 1000), signal))) return;
          wait = Math.min(maxPollIntervalMs, wait * 2);
          continue;
        }
        let latest = last;
        for (const change of page.data) {
          if (!after(change, latest)) continue;
          latest = { date: change.effective_date, id: change.id };
          this.#state = { cursor, last: latest };
          yield change;
          if (signal?.aborted) return;
        }
        if (page.nextCursor !== undefined) {
          // The page is done: the next one starts after it, whatever was skipped.
          this.#state = { cursor: page.nextCursor, last: latest };
          wait = pollIntervalMs;
          continue;
        }
        if (latest !== last) wait = pollIntervalMs;
        if (!(await sleep(wait, signal))) return;
        wait = Math.min(maxPollIntervalMs, wait * 2);
      }
    } finally {
      this.#running = false;
    }
  }
}
