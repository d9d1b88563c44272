/**
 * Keys through their life: created with an expiry, rolled to a successor with
 * a grace period for the old key, settings of the organisation. Expiry is
 * checked when a request is authenticated (see isExpired), so a key ends at
 * its moment on every instance with no process running then; a change of a
 * key's expiry drops cached lookups like a revocation does. Each operation
 * records its own audit entry, in the transaction of its change.
 */
import { EXPIRY_DAYS, GRACE_NAMES, GRACE_PERIODS, keyState, type GracePeriod } from '../../domain/key-life.ts';
import type { ApiKeyInfo, KeyMode, Organisation } from '../../domain/access.ts';
import { isIsoDate } from '../../domain/records.ts';
import { InvalidRequest } from '../../errors.ts';
import type { OrgSettings } from '../../store/key-life-store.ts';
import { audit } from '../audit.ts';
import { createKey, makeKey, storeKey, type AdminDeps, type CreatedKey } from './admin.ts';

const DAY_MS = 86_400_000;
const MAX_EXPIRY_MS = 10 * 366 * DAY_MS;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether every field of a time TIMESTAMP matched is in its range. Date.parse
 * rolls what is out of range over into the next field (2027-02-30 is March 2,
 * 24:00 the next day), which would end a key on a day nobody asked for.
 */
function isRealTime(m: RegExpExecArray): boolean {
  const [, date, hour, minute, second = '0', offsetHour = '0', offsetMinute = '0'] = m;
  return isIsoDate(date!) && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59 && Number(offsetHour) <= 23 && Number(offsetMinute) <= 59;
}

/**
 * An expiry as a person gives it: '' or 'never', a number of days ('30d' or
 * '30'), a date (the key works through that UTC day) or an RFC 3339 time.
 * Returns the ISO time it ends, or null for never.
 */
export function parseExpiry(input: string, nowMs: number): string | null {
  const text = input.trim();
  if (text === '' || text === 'never') return null;
  let at: number;
  const days = /^(\d{1,4})d?$/.exec(text);
  const time = TIMESTAMP.exec(text);
  if (days) at = nowMs + Number(days[1]) * DAY_MS;
  else if (DATE.test(text)) at = isIsoDate(text) ? Date.parse(`${text}T00:00:00Z`) + DAY_MS : NaN;
  else if (time) at = isRealTime(time) ? Date.parse(text) : NaN;
  else throw new InvalidRequest(`expiry "${input}" must be never, a number of days (e.g. 90d), a date (YYYY-MM-DD) or a time (RFC 3339)`);
  if (!Number.isFinite(at)) throw new InvalidRequest(`expiry "${input}" is not a real date`);
  if (at <= nowMs) throw new InvalidRequest(`expiry "${input}" is not in the future`);
  if (at - nowMs > MAX_EXPIRY_MS) throw new InvalidRequest('an expiry may be at most 10 years ahead');
  return new Date(at).toISOString();
}

export { EXPIRY_DAYS, GRACE_NAMES };

export function parseGrace(input: string): GracePeriod {
  if (!(GRACE_NAMES as string[]).includes(input)) throw new InvalidRequest(`grace period "${input}" must be one of ${GRACE_NAMES.join(', ')}`);
  return input as GracePeriod;
}

/** Creates a key that may end by itself (createKey records it in the audit log). */
export async function createExpiringKey(
  deps: AdminDeps,
  org: Organisation,
  input: { mode: KeyMode; name: string; expiresAt: string | null },
  actor: string,
): Promise<CreatedKey> {
  return createKey(deps, org, input.mode, input.name, { expiresAt: input.expiresAt, actor });
}

export interface RolledKey extends CreatedKey {
  /** The old key, as it now is (its expiry set to the end of the grace period). */
  previous: ApiKeyInfo;
}

/**
 * Creates the successor of an active key (same name, mode and organisation)
 * and sets the old key to expire at the end of the grace period (sooner if it
 * already expires sooner). With org given, only a key of that organisation.
 * The successor, the old key's end, the roll and their audit entries are
 * written in one transaction: all of them, or none.
 */
export async function rollKey(deps: AdminDeps, keyId: string, grace: GracePeriod, actor: string, org?: Organisation): Promise<RolledKey> {
  const old = await deps.store.access.getKey(keyId);
  if (!old || (org && old.orgId !== org.id)) throw new InvalidRequest(`no key "${keyId}"`);
  const state = keyState(old, deps.now());
  if (state !== 'active') throw new InvalidRequest(`key ${old.displayPrefix}… is ${state}: only an active key can be rolled`);
  const owner = org ?? (await deps.store.access.getOrgById(old.orgId));
  if (!owner) throw new InvalidRequest(`no key "${keyId}"`);
  const created = await makeKey(deps, owner, old.mode, old.name, null);
  const previous = await deps.store.withTransaction(async (tx) => {
    await storeKey(tx, deps, created, actor);
    const endsAt = new Date(deps.now() + GRACE_PERIODS[grace]).toISOString();
    await tx.keyLife.shortenExpiry(old.id, endsAt);
    // The expiry alone cannot say the key was rolled: a key may be created with one.
    await tx.keyLife.addRoll(old.id, created.info.id, new Date(deps.now()).toISOString());
    const ended = (await tx.access.getKey(old.id))!;
    await audit(
      tx,
      deps,
      owner.id,
      actor,
      'key.rolled',
      `${old.name}: ${old.displayPrefix}… → ${created.info.displayPrefix}… (${old.mode}); the old key ends ${ended.expiresAt}`,
    );
    return ended;
  });
  // The old key's cached lookups now hold a stale expiry: drop them everywhere before returning.
  deps.onChange?.();
  await deps.afterChange?.();
  return { ...created, previous };
}

const MAX_LOG_DAYS = 7;
const MAX_LOG_ENTRIES = 10_000;

export async function orgSettings(deps: AdminDeps, org: Organisation): Promise<OrgSettings> {
  return deps.store.keyLife.getOrgSettings(org.id);
}

/**
 * Changes the organisation's settings, and records what changed in the audit
 * log in the same transaction. The request log keeps at most 7 days and
 * 10 000 requests; an organisation may keep less.
 */
export async function updateOrgSettings(deps: AdminDeps, org: Organisation, settings: OrgSettings, actor: string): Promise<OrgSettings> {
  const { requestLogDays: days, requestLogMax: max } = settings;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_LOG_DAYS) throw new InvalidRequest(`the request log keeps 1 to ${MAX_LOG_DAYS} days`);
  if (!Number.isSafeInteger(max) || max < 100 || max > MAX_LOG_ENTRIES) throw new InvalidRequest(`the request log keeps 100 to ${MAX_LOG_ENTRIES} requests`);
  await deps.store.withTransaction(async (tx) => {
    const before = await tx.keyLife.getOrgSettings(org.id);
    await tx.keyLife.setOrgSettings(org.id, settings);
    if (before.autoRevokeExposed !== settings.autoRevokeExposed) {
      await audit(tx, deps, org.id, actor, 'settings.changed', `revoke exposed keys automatically: ${settings.autoRevokeExposed ? 'on' : 'off'}`);
    }
    if (before.requestLogDays !== days || before.requestLogMax !== max) {
      await audit(tx, deps, org.id, actor, 'settings.changed', `request log kept for ${days} days or ${max} requests`);
    }
  });
  return settings;
}
