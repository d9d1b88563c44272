/** The demo organisation of a fresh database: on the pro plan, with one live key. */
import { createKey, createOrg, type AdminDeps } from './access/admin.ts';

export const DEMO_ORG = 'demo';

/** Creates the demo organisation and a key when no organisation exists; returns the key, or null. */
export async function ensureDemoAccess(admin: AdminDeps): Promise<string | null> {
  if ((await admin.store.access.listOrgs()).length > 0) return null;
  const org = await createOrg(admin, DEMO_ORG, 'pro');
  const { key } = await createKey(admin, org, 'live', 'demo key');
  return key;
}

/** The banner printed once on the terminal; the key is never written to the log. */
export function demoKeyBanner(key: string, baseUrl: string): string {
  return [
    '',
    'A demo organisation "demo" (plan: pro) was created with this API key.',
    'It is shown only this once and cannot be recovered: keep it now.',
    '',
    `  ${key}`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${key}" "${baseUrl}/v1/codes?limit=2"`,
    '',
  ].join('\n');
}
