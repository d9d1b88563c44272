/**
 * The part of the Store behind keys' whole life: expiries (and a roll's grace
 * period), which key was rolled to which, exposures, per-organisation
 * settings, per-key usage over a span of days, and the request log. Each
 * backend implements it in a file of its own.
 */
import type { AppendLimits, RequestBatch } from '../domain/request-batch.ts';
import type { UsageRow } from './access-store.ts';

import type { Exposure, LoggedRequest, NewExposure, OrgSettings, RequestLogQuery } from '../domain/key-life-records.ts';

export type { Exposure, ExposureVia, LoggedRequest, NewExposure, OrgSettings, RequestLogEntry, RequestLogQuery } from '../domain/key-life-records.ts';
export { DEFAULT_ORG_SETTINGS } from '../domain/key-life-records.ts';

/** Keys' expiries and rolls, exposures and organisation settings: the part a transaction may write (Store.withTransaction). */
export interface KeyRecordStore {
  /** Sets when the key stops working, unless it is revoked or already ends sooner. Returns whether it changed. */
  shortenExpiry(keyId: string, expiresAt: string): Promise<boolean>;
  /** Records that a key was rolled: its successor, and when. */
  addRoll(keyId: string, successorId: string, at: string): Promise<void>;
  /** The id of the latest key the key was rolled to; null when it was never rolled. */
  successorOf(keyId: string): Promise<string | null>;

  addExposure(exposure: NewExposure): Promise<void>;
  /** The organisation's exposures, newest first. */
  listExposures(orgId: string, limit: number): Promise<Exposure[]>;

  getOrgSettings(orgId: string): Promise<OrgSettings>;
  setOrgSettings(orgId: string, settings: OrgSettings): Promise<void>;

  /** Usage of an organisation's keys from the day `fromDay` (inclusive, YYYY-MM-DD) on. */
  usageSince(orgId: string, fromDay: string): Promise<UsageRow[]>;
}

/** The above, and the request log. */
export interface KeyLifeStore extends KeyRecordStore {
  /** Appends requests, in one transaction. Returns false, writing nothing, while the database is busy. */
  appendRequests(batch: RequestBatch): Promise<boolean>;
  /**
   * The most one appendRequests() should carry: a few hundred requests where
   * the append holds the event loop, a flush's worth (within a bounded size)
   * where a thread of its own appends.
   */
  readonly appendLimits: AppendLimits;
  /** One page, newest first, and whether older entries remain. */
  pageRequests(query: RequestLogQuery): Promise<{ entries: LoggedRequest[]; hasMore: boolean }>;
  /** Drops the organisation's entries older than `before` and beyond the newest `keep`. */
  pruneRequests(orgId: string, before: string, keep: number): Promise<void>;
  /** Organisations that have logged requests (for pruning). */
  orgsWithRequests(): Promise<string[]>;
}
