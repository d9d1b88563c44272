import type { Redis } from 'ioredis';
import type { Plan } from '../domain/access.ts';
import type { LimitDecision } from './limiter.ts';
import type { Windows } from '../domain/windows.ts';

/**
 * The Lua scripts of the Redis limiter. Redis runs a script atomically, so
 * each one is a single step for every instance at once.
 *
 * Keys (all under the configured prefix):
 *   access:epoch      a number that changes whenever cached key lookups may be
 *                     wrong (a revocation, a plan change, lost data); expires
 *                     after a week unused
 *   access:pgversion  the settings.access_version of PostgreSQL last pushed
 *   c:{org}:month:…   requests admitted in a UTC month; expire a day after it
 *   c:{org}:given-back:…  of those, requests given back (the service failed
 *                     them); the month's count is the difference. Both only
 *                     grow, so their copies in PostgreSQL converge on the largest.
 *   c:{org}:minute:…  requests counted in a UTC minute; expire after 2 minutes
 *   replayed:{id}     a replay of counts made while Redis was unreachable has
 *                     been applied; expires after a day
 */

/**
 * Checks access, then the month, then the minute, and counts the request in
 * both only when both admit it.
 *
 * KEYS: epoch, month counter, given-back counter, minute counter
 * ARGV: 1 expected epoch ('' = no check), 2 epoch to create if missing,
 *       3 epoch ttl s, 4 monthly quota (-1 = unlimited), 5 rate per minute,
 *       6 consume (1|0), 7 month ttl s, 8 minute ttl s,
 *       9 month seed ('' = none), 10 minute seed, 11 given-back seed
 * Returns {status, epoch, refused (0 none, 1 month, 2 minute), month count
 * (admitted − given back), minute count}; status 'stale' (expected epoch
 * differs) and 'seed' (month counter missing: call again with counts from
 * PostgreSQL) count nothing.
 */
export const LIMIT_SCRIPT = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[2]
  redis.call('SET', KEYS[1], epoch, 'EX', ARGV[3])
end
if ARGV[1] ~= '' and ARGV[1] ~= epoch then
  return {'stale', epoch, 0, 0, 0}
end
local month = redis.call('GET', KEYS[2])
if not month then
  if ARGV[9] == '' then
    return {'seed', epoch, 0, 0, 0}
  end
  month = ARGV[9]
  redis.call('SET', KEYS[2], month, 'EX', ARGV[7])
  redis.call('SET', KEYS[4], ARGV[10], 'EX', ARGV[8], 'NX')
  if tonumber(ARGV[11]) > 0 then
    redis.call('SET', KEYS[3], ARGV[11], 'EX', ARGV[7], 'NX')
  end
end
local used = tonumber(month) - tonumber(redis.call('GET', KEYS[3]) or '0')
local minute = tonumber(redis.call('GET', KEYS[4]) or '0')
local quota = tonumber(ARGV[4])
local refused = 0
if quota >= 0 and used >= quota then
  refused = 1
elseif minute >= tonumber(ARGV[5]) then
  refused = 2
end
if refused == 0 and ARGV[6] == '1' then
  redis.call('INCR', KEYS[2])
  used = used + 1
  minute = redis.call('INCR', KEYS[4])
  if redis.call('TTL', KEYS[4]) < 0 then
    redis.call('EXPIRE', KEYS[4], ARGV[8])
  end
end
return {'ok', epoch, refused, used, minute}
`;

/**
 * Gives requests back to a month: at most as many as it holds, so the
 * month's count never goes below zero.
 * KEYS: month counter, given-back counter. ARGV: 1 count, 2 ttl s.
 * Returns the given-back count, or -1 when the month counter is missing.
 */
export const GIVE_BACK_SCRIPT = `
local month = redis.call('GET', KEYS[1])
if not month then
  return -1
end
local back = tonumber(redis.call('GET', KEYS[2]) or '0')
local n = math.min(tonumber(ARGV[1]), tonumber(month) - back)
if n <= 0 then
  return back
end
back = redis.call('INCRBY', KEYS[2], n)
redis.call('EXPIRE', KEYS[2], ARGV[2])
return back
`;

/**
 * Adds what an instance decided alone while Redis was unreachable to a
 * month: the requests it admitted, then the requests given back (at most as
 * many as the month holds). Once only: a replay whose answer was lost (a
 * timeout) and that is sent again finds its marker and changes nothing.
 * KEYS: month counter, given-back counter, this replay's marker.
 * ARGV: 1 admitted, 2 month seed ('' = none), 3 given-back seed, 4 ttl s,
 *       5 given back, 6 marker ttl s.
 * Returns the month's admitted count, or -1 when the counter is missing and
 * no seed was given.
 */
export const REPLAY_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 1 then
  return tonumber(redis.call('GET', KEYS[1]) or '0')
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[2] == '' then
    return -1
  end
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[4])
  if tonumber(ARGV[3]) > 0 then
    redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4], 'NX')
  end
end
local month = redis.call('INCRBY', KEYS[1], ARGV[1])
local back = tonumber(redis.call('GET', KEYS[2]) or '0')
local n = math.min(tonumber(ARGV[5]), month - back)
if n > 0 then
  redis.call('INCRBY', KEYS[2], n)
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
redis.call('SET', KEYS[3], '1', 'EX', ARGV[6])
return month
`;

/**
 * Pushes PostgreSQL's access version: when it differs from the one last
 * pushed, the epoch moves and every instance's cached key lookups are void.
 * KEYS: pgversion, epoch. ARGV: 1 version, 2 epoch to create if missing, 3 ttl s.
 * Returns the epoch.
 */
export const SYNC_ACCESS_SCRIPT = `
local stored = redis.call('GET', KEYS[1])
if stored ~= ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
  if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('INCR', KEYS[2])
  else
    redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
end
redis.call('EXPIRE', KEYS[2], ARGV[3])
return redis.call('GET', KEYS[2])
`;

/** The scripts as commands (ioredis sends EVALSHA, and the script itself after Redis lost it). */
export interface ScriptCommands {
  cbLimit(...args: (string | number)[]): Promise<[string, string, number, number, number]>;
  cbReplay(...args: (string | number)[]): Promise<number>;
  cbGiveBack(...args: (string | number)[]): Promise<number>;
  cbSyncAccess(...args: (string | number)[]): Promise<string>;
}

export function defineScripts(redis: Redis): void {
  redis.defineCommand('cbLimit', { numberOfKeys: 4, lua: LIMIT_SCRIPT });
  redis.defineCommand('cbReplay', { numberOfKeys: 3, lua: REPLAY_SCRIPT });
  redis.defineCommand('cbGiveBack', { numberOfKeys: 2, lua: GIVE_BACK_SCRIPT });
  redis.defineCommand('cbSyncAccess', { numberOfKeys: 2, lua: SYNC_ACCESS_SCRIPT });
}

/** The decision from LIMIT_SCRIPT's counts (after counting, when it counted). */
export function decisionFrom(plan: Plan, w: Windows, refused: number, month: number, minute: number): LimitDecision {
  const quota = plan.monthlyQuota;
  return {
    allowed: refused === 0,
    refusedBy: refused === 1 ? 'month' : refused === 2 ? 'minute' : null,
    minute: { limit: plan.ratePerMinute, remaining: Math.max(0, plan.ratePerMinute - minute), resetSeconds: w.minuteResetSeconds },
    month: { limit: quota, remaining: quota === null ? null : Math.max(0, quota - month), resetSeconds: w.monthResetSeconds },
    monthResetsAt: w.monthResetsAt,
    backend: 'redis',
  };
}

/** The caller's key lookup is out of date: nothing was counted, nothing else is known. */
export function staleDecision(plan: Plan, w: Windows): LimitDecision {
  return {
    allowed: false,
    refusedBy: null,
    stale: true,
    minute: { limit: plan.ratePerMinute, remaining: null, resetSeconds: w.minuteResetSeconds },
    month: { limit: plan.monthlyQuota, remaining: null, resetSeconds: w.monthResetSeconds },
    monthResetsAt: w.monthResetsAt,
    backend: 'redis',
  };
}
