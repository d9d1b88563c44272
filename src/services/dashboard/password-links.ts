/**
 * A one-time link checked before it is used: its page tells at once that a
 * dead link (used, expired, never issued, or its user disabled) is not valid,
 * instead of after the password was typed twice. Checking never uses the link
 * up; setting the password does (users.ts), and checks again then.
 */
import { hashSecret } from '../access/api-keys.ts';
import type { UserDeps } from './users.ts';

/** Whether the link would set a password now. */
export async function passwordLinkWorks(deps: UserDeps, token: string): Promise<boolean> {
  if (token === '') return false;
  const userId = await deps.store.dashboard.passwordTokenUser(hashSecret(token), new Date(deps.now()).toISOString());
  const user = userId === null ? null : await deps.store.dashboard.getUser(userId);
  return user !== null && user.disabledAt === null;
}
