/** Rows of the key-life tables → domain objects, shared by every backend. */
import type { UsageRow } from './access-store.ts';
import type { Exposure, LoggedRequest } from './key-life-store.ts';
import type { Row } from './row-mappers.ts';

export function exposureFromRow(r: Row): Exposure {
  return {
    id: Number(r.id),
    keyId: String(r.key_id),
    orgId: String(r.org_id),
    via: r.via as Exposure['via'],
    at: String(r.at),
    address: String(r.address),
    route: String(r.route),
    revoked: r.revoked === true || Number(r.revoked) === 1,
  };
}

export function loggedRequestFromRow(r: Row): LoggedRequest {
  return {
    id: Number(r.id),
    orgId: String(r.org_id),
    keyId: String(r.key_id),
    keyPrefix: String(r.key_prefix),
    at: String(r.at),
    method: String(r.method),
    path: String(r.path),
    status: Number(r.status),
    errorCode: r.error_code === null || r.error_code === undefined ? null : String(r.error_code),
    durationMs: Number(r.duration_ms),
    requestId: String(r.request_id),
  };
}

export function usageFromRow(r: Row): UsageRow {
  return { keyId: String(r.key_id), day: String(r.day), outcome: r.outcome as UsageRow['outcome'], count: Number(r.count) };
}
