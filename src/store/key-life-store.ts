/**
 * The part of the Store behind keys' whole life: expiries (and a roll's grace
 * period), exposures, per-organisation settings, per-key usage over a span of
 * days, and the request log. Each backend implements it in a file of its own.
 */
import type { UsageRow } from './access-store.ts';

export type ExposureVia = 'query' | 'path' | 'body' | 'referer';

export interface Exposure {
  id: number;
  keyId: string;
  orgId: string;
  via: ExposureVia;
  at: string;
  /** The client address the request came from. */
  address: string;
  /** Method and path, without the query (which held the key). */
  route: string;
  /** The organisation's setting revoked the key on this exposure. */
  revoked: boolean;
}

export type NewExposure = Omit<Exposure, 'id'>;

export interface OrgSettings {
  autoRevokeExposed: boolean;
  requestLogDays: number;
  requestLogMax: number;
}

export const DEFAULT_ORG_SETTINGS: OrgSettings = { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_000 };

export interface RequestLogEntry {
  orgId: string;
  keyId: string;
  keyPrefix: string;
  at: string;
  method: string;
  /** Path with its query, key-shaped values redacted. */
  path: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
  requestId: string;
}

export interface LoggedRequest extends RequestLogEntry {
  id: number;
}

export interface RequestLogQuery {
  orgId: string;
  keyId: string | null;
  /** 2, 4 or 5 (2xx, 4xx, 5xx); null: every status. */
  statusClass: number | null;
  requestId: string | null;
  /** Exclusive upper bound on id: the page continues below it (newest first). */
  before: number | null;
  limit: number;
}

export interface KeyLifeStore {
  /** Sets when the key stops working, unless it is revoked or already ends sooner. Returns whether it changed. */
  shortenExpiry(keyId: string, expiresAt: string): Promise<boolean>;

  addExposure(exposure: NewExposure): Promise<void>;
  /** The organisation's exposures, newest first. */
  listExposures(orgId: string, limit: number): Promise<Exposure[]>;

  getOrgSettings(orgId: string): Promise<OrgSettings>;
  setOrgSettings(orgId: string, settings: OrgSettings): Promise<void>;

  /** Usage of an organisation's keys from the day `fromDay` (inclusive, YYYY-MM-DD) on. */
  usageSince(orgId: string, fromDay: string): Promise<UsageRow[]>;

  /** Appends requests, in one transaction. Returns false, writing nothing, while the database is busy. */
  appendRequests(entries: RequestLogEntry[]): Promise<boolean>;
  /** One page, newest first, and whether older entries remain. */
  pageRequests(query: RequestLogQuery): Promise<{ entries: LoggedRequest[]; hasMore: boolean }>;
  /** Drops the organisation's entries older than `before` and beyond the newest `keep`. */
  pruneRequests(orgId: string, before: string, keep: number): Promise<void>;
  /** Organisations that have logged requests (for pruning). */
  orgsWithRequests(): Promise<string[]>;
}
