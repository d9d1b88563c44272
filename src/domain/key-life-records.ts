/**
 * What keys' whole life records: exposures of a key, per-organisation
 * settings and the request log — types shared by the store, the services and
 * the dashboard's pages.
 */
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
