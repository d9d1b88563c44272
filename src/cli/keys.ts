/** `codebook keys create|roll|revoke|list`. */
import type { ApiKeyInfo, Organisation } from '../domain/access.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { listKeys, revokeKey } from '../services/access/admin.ts';
import { createExpiringKey, parseExpiry, parseGrace, rollKey } from '../services/access/key-life.ts';
import { keyState } from '../domain/key-life.ts';
import { existingOrg } from './orgs.ts';
import { flagValue, groupHelp, helpHint, output, parseCommand, required, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE =
  'codebook keys create --org SLUG [--test] [--name NAME] [--expires-at DATE|TIME|DAYSd] [--json]\n       codebook keys roll KEY_ID [--grace now|1h|24h|7d] [--json]\n       codebook keys revoke KEY_ID [--json]\n       codebook keys list --org SLUG [--json]';

function publicKey(k: ApiKeyInfo, org: Organisation | string, nowMs = Date.now()) {
  return {
    id: k.id,
    display_prefix: k.displayPrefix,
    name: k.name,
    mode: k.mode,
    org: typeof org === 'string' ? org : org.slug,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
    expires_at: k.expiresAt,
    state: keyState(k, nowMs),
  };
}

export async function keysCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const parsed = parseCommand(
    rest,
    {
      org: { type: 'string' },
      test: { type: 'boolean', default: false },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
      grace: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const { values, positionals } = parsed;
  const takes = (flags: string[], words: number) => takesOnly(parsed, `codebook keys ${action}`, flags, words, USAGE);
  const out = output(values.json);
  switch (action) {
    case 'create': {
      takes(['org', 'test', 'name', 'expires-at'], 0);
      const slug = required(values.org, '--org', USAGE);
      // An empty value (an unset variable in a script) is no choice: the parser reads it as never.
      if (values['expires-at'] === '')
        throw new CliError(`--expires-at needs a value: never, a number of days (90d), a date (YYYY-MM-DD) or a time (RFC 3339)`, 2);
      flagValue('--expires-at', () => parseExpiry(values['expires-at'] ?? '', Date.now()));
      const { admin } = await deps();
      const org = await existingOrg(admin, slug);
      const expiresAt = flagValue('--expires-at', () => parseExpiry(values['expires-at'] ?? '', admin.now()));
      const { key, info } = await createExpiringKey(admin, org, { mode: values.test ? 'test' : 'live', name: values.name ?? '', expiresAt }, 'operator');
      out.result(
        { id: info.id, key, display_prefix: info.displayPrefix, mode: info.mode, org: org.slug, created_at: info.createdAt, expires_at: info.expiresAt },
        `Created ${info.mode} key ${info.id} ("${info.name}") for ${org.slug}${expiresAt ? `, expiring at ${expiresAt}` : ''}.\nThe key is shown only this once and cannot be recovered:\n\n  ${key}\n`,
      );
      return;
    }
    case 'roll': {
      takes(['grace'], 1);
      if (positionals.length !== 1) throw new CliError(`expected one KEY_ID (key_…; see keys list) ${helpHint(USAGE)}`, 2);
      const grace = flagValue('--grace', () => parseGrace(values.grace ?? '24h'));
      const { admin } = await deps();
      const { key, info, previous } = await rollKey(admin, positionals[0]!, grace, 'operator');
      out.result(
        {
          id: info.id,
          key,
          display_prefix: info.displayPrefix,
          mode: info.mode,
          created_at: info.createdAt,
          previous: { id: previous.id, display_prefix: previous.displayPrefix, expires_at: previous.expiresAt },
        },
        `Rolled ${previous.id} (${previous.displayPrefix}…): it keeps working until ${previous.expiresAt}, then is refused.\nIts successor ${info.id} ("${info.name}") is shown only this once and cannot be recovered:\n\n  ${key}\n`,
      );
      return;
    }
    case 'revoke': {
      takes([], 1);
      if (positionals.length !== 1) throw new CliError(`expected one KEY_ID (key_…; see keys list) ${helpHint(USAGE)}`, 2);
      const { admin, store } = await deps();
      const { key: k, revokedNow } = await revokeKey(admin, positionals[0]!);
      const org = (await store.access.listOrgs()).find((o) => o.id === k.orgId)?.slug ?? k.orgId;
      // Revoking a revoked key is not an error (the key is in the state asked for) and records nothing.
      if (!revokedNow) {
        out.result({ ...publicKey(k, org), already_revoked: true }, `key ${k.id} (${k.displayPrefix}…) was already revoked at ${k.revokedAt}; nothing changed`);
        return;
      }
      out.result(
        { ...publicKey(k, org), already_revoked: false },
        `key ${k.id} (${k.displayPrefix}…) revoked at ${k.revokedAt}; it is refused from the next request on`,
      );
      return;
    }
    case 'list': {
      takes(['org'], 0);
      const slug = required(values.org, '--org', USAGE);
      const { admin } = await deps();
      const org = await existingOrg(admin, slug);
      const keys = (await listKeys(admin, org)).map((k) => publicKey(k, org));
      out.result(
        keys,
        table(
          ['ID', 'PREFIX', 'NAME', 'MODE', 'STATE', 'CREATED', 'LAST USED', 'EXPIRES'],
          keys.map((k) => [k.id, `${k.display_prefix}…`, k.name, k.mode, k.state, k.created_at, k.last_used_at ?? 'never', k.expires_at ?? 'never']),
        ),
      );
      return;
    }
    default:
      throw new CliError(`expected create, roll, revoke or list ${helpHint(USAGE)}`, 2);
  }
}
