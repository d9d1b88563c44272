/**
 * The audit log: who did what to which thing of an organisation. The service
 * that makes a change records it (keys: access/admin.ts, access/key-life.ts,
 * access/exposure.ts; users and passwords: dashboard/users.ts), in the
 * transaction that makes the change (Store.withTransaction): the change and
 * its entry are written together or not at all. Entry layers never write it
 * themselves.
 */
import type { WriteTransaction } from '../store/store.ts';

/** The actor of what is done from the CLI. */
export const OPERATOR = 'operator';

export async function audit(
  tx: Pick<WriteTransaction, 'dashboard'>,
  deps: { now: () => number },
  orgId: string,
  actor: string,
  action: string,
  target: string,
): Promise<void> {
  await tx.dashboard.addAudit({ orgId, actor, action, target, at: new Date(deps.now()).toISOString() });
}
