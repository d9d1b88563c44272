/** `codebook keys create|revoke|list`. */
import type { ApiKeyInfo, Organisation } from '../domain/access.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { createKey, listKeys, revokeKey } from '../services/access/admin.ts';
import { existingOrg } from './orgs.ts';
import { groupHelp, helpHint, output, parseCommand, required } from './args.ts';
import { table } from './table.ts';

const USAGE =
  'codebook keys create --org SLUG [--test] [--name NAME] [--json]\n       codebook keys revoke KEY_ID [--json]\n       codebook keys list --org SLUG [--json]';

function publicKey(k: ApiKeyInfo, org: Organisation | string) {
  return {
    id: k.id,
    display_prefix: k.displayPrefix,
    name: k.name,
    mode: k.mode,
    org: typeof org === 'string' ? org : org.slug,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
    state: k.revokedAt === null ? 'active' : 'revoked',
  };
}

export async function keysCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const { values, positionals } = parseCommand(
    rest,
    { org: { type: 'string' }, test: { type: 'boolean', default: false }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
    USAGE,
  );
  const out = output(values.json);
  switch (action) {
    case 'create': {
      const { admin } = await deps();
      const org = await existingOrg(admin, required(values.org, '--org', USAGE));
      const { key, info } = await createKey(admin, org, values.test ? 'test' : 'live', values.name ?? '');
      out.result(
        { id: info.id, key, display_prefix: info.displayPrefix, mode: info.mode, org: org.slug, created_at: info.createdAt },
        `Created ${info.mode} key ${info.id} ("${info.name}") for ${org.slug}.\nThe key is shown only this once and cannot be recovered:\n\n  ${key}\n`,
      );
      return;
    }
    case 'revoke': {
      if (positionals.length !== 1) throw new CliError(`expected one KEY_ID (key_…; see keys list) ${helpHint(USAGE)}`, 2);
      const { admin, store } = await deps();
      const { key: k, revokedNow } = await revokeKey(admin, positionals[0]!);
      const org = (await store.access.listOrgs()).find((o) => o.id === k.orgId)?.slug ?? k.orgId;
      // Revoking a revoked key is not an error (the key is in the state asked for) and records nothing.
      if (!revokedNow) {
        out.result({ ...publicKey(k, org), already_revoked: true }, `key ${k.id} (${k.displayPrefix}…) was already revoked at ${k.revokedAt}; nothing changed`);
        return;
      }
      out.result({ ...publicKey(k, org), already_revoked: false }, `key ${k.id} (${k.displayPrefix}…) revoked at ${k.revokedAt}; it is refused from the next request on`);
      return;
    }
    case 'list': {
      const { admin } = await deps();
      const org = await existingOrg(admin, required(values.org, '--org', USAGE));
      const keys = (await listKeys(admin, org)).map((k) => publicKey(k, org));
      out.result(
        keys,
        table(
          ['ID', 'PREFIX', 'NAME', 'MODE', 'STATE', 'CREATED', 'LAST USED'],
          keys.map((k) => [k.id, `${k.display_prefix}…`, k.name, k.mode, k.state, k.created_at, k.last_used_at ?? 'never']),
        ),
      );
      return;
    }
    default:
      throw new CliError(`expected create, revoke or list ${helpHint(USAGE)}`, 2);
  }
}
