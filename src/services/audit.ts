/**
 * The audit log: who did what to which thing of an organisation. The service
 * that makes a change records it (keys: access/admin.ts; users and passwords:
 * dashboard/users.ts); entry layers never write it themselves.
 */
import type { Store } from '../store/store.ts';

/** The actor of what is done from the CLI. */
export const OPERATOR = 'operator';

export interface AuditDeps {
  store: Pick<Store, 'dashboard'>;
  now: () => number;
}

export async function audit(deps: AuditDeps, orgId: string, actor: string, action: string, target: string): Promise<void> {
  await deps.store.dashboard.addAudit({ orgId, actor, action, target, at: new Date(deps.now()).toISOString() });
}
