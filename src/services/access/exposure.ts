/**
 * A live key seen where a key must never be (a URL's query string, a request
 * body field, a Referer header) has leaked into every log and proxy on its
 * way. The key is marked exposed: an entry of its own and one in the audit
 * log (time, client address, route; never the key), a banner on the
 * organisation's dashboard, and, when the organisation asked for it, the key
 * is revoked at once. Whoever sent it learns nothing of this from the answer.
 */
import { keyState } from '../../domain/key-life.ts';
import type { ApiKeyInfo, Organisation } from '../../domain/access.ts';
import type { Exposure, ExposureVia } from '../../store/key-life-store.ts';
import { audit } from '../audit.ts';
import { keyLabel, type AdminDeps } from './admin.ts';
import { hashSecret } from './api-keys.ts';

export const VIA_TEXT: Record<ExposureVia, string> = {
  query: 'in a URL',
  path: 'in a URL path',
  body: 'in a request body',
  referer: 'in a Referer header',
};

/** One report per key and way within this time: a client looping on a leaked key writes one entry, not thousands. */
const REPEAT_MS = 60_000;
const MAX_REMEMBERED = 10_000;

export interface ExposureReport {
  via: ExposureVia;
  address: string;
  /** Method and path, without any query. */
  route: string;
}

export class ExposureWatch {
  private readonly deps: AdminDeps;
  private readonly recent = new Map<string, number>();

  constructor(deps: AdminDeps) {
    this.deps = deps;
  }

  /** Reports every key-shaped text found; only live keys (active, not expired) are marked. Never throws. */
  async report(keys: readonly string[], where: ExposureReport): Promise<void> {
    for (const key of new Set(keys)) {
      try {
        await this.reportOne(key, where);
      } catch {
        // Marking a leak must never change the answer to the request that leaked it.
      }
    }
  }

  private async reportOne(key: string, where: ExposureReport): Promise<void> {
    const { deps } = this;
    const now = deps.now();
    const hash = hashSecret(key);
    const seen = `${hash} ${where.via}`;
    const last = this.recent.get(seen);
    if (last !== undefined && now - last < REPEAT_MS) return;
    const found = await deps.store.access.findKeyByHash(hash);
    if (!found || keyState(found.key, now) !== 'active') return;
    if (this.recent.size >= MAX_REMEMBERED) this.recent.clear();
    this.recent.set(seen, now);
    const settings = await deps.store.keyLife.getOrgSettings(found.org.id);
    const at = new Date(now).toISOString();
    const k = found.key;
    const label = keyLabel(k);
    // The revocation, the exposure and their audit entries: all of them, or none.
    const revoked = await deps.store.withTransaction(async (tx) => {
      const revokedNow = settings.autoRevokeExposed && (await tx.access.revokeKey(k.id, at))?.revokedNow === true;
      await tx.keyLife.addExposure({ keyId: k.id, orgId: found.org.id, via: where.via, at, address: where.address, route: where.route, revoked: revokedNow });
      await audit(tx, deps, found.org.id, 'exposure', 'key.exposed', `${label} sent ${VIA_TEXT[where.via]} from ${where.address} on ${where.route}`);
      // One revocation in the log, saying why: the exposure revoked it, not the operator.
      if (revokedNow) await audit(tx, deps, found.org.id, 'exposure', 'key.revoked', `${label}: revoked automatically after it was exposed`);
      return revokedNow;
    });
    if (revoked) {
      deps.onChange?.();
      await deps.afterChange?.();
    }
  }
}

export interface ExposureWarning {
  key: ApiKeyInfo;
  exposure: Exposure;
  /** The key it was rolled to, when it was: then it only waits to be revoked; otherwise it must be rolled. */
  successor: ApiKeyInfo | null;
}

/** The latest exposure of each of the organisation's keys that still works: what the banner asks to roll. */
export async function exposureWarnings(deps: AdminDeps, org: Organisation): Promise<ExposureWarning[]> {
  const exposures = await deps.store.keyLife.listExposures(org.id, 200);
  const keys = new Map((await deps.store.access.listKeys(org.id)).map((k) => [k.id, k]));
  const now = deps.now();
  const out: ExposureWarning[] = [];
  const seen = new Set<string>();
  for (const exposure of exposures) {
    const key = keys.get(exposure.keyId);
    if (!key || seen.has(key.id)) continue;
    seen.add(key.id);
    // A key rolled after it leaked still works until its grace ends: keep warning until then.
    if (keyState(key, now) !== 'active') continue;
    const successorId = await deps.store.keyLife.successorOf(key.id);
    out.push({ key, exposure, successor: successorId === null ? null : (keys.get(successorId) ?? null) });
  }
  return out;
}
