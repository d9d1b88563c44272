/** `codebook users create|link|list|disable`: dashboard users of an organisation. */
import type { Deps } from '../deps.ts';
import type { User } from '../domain/dashboard.ts';
import { CliError } from '../errors.ts';
import { existingOrg } from './orgs.ts';
import { createUser, disableUser, LINK_VALIDITY_MS, newPasswordLink } from '../services/dashboard/users.ts';
import { groupHelp, helpHint, output, parseCommand, required, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE =
  'codebook users create --org SLUG --email E [--json]\n       codebook users link --email E [--json]\n       codebook users list [--org SLUG] [--json]\n       codebook users disable --email E [--json]';

function publicUser(u: User, org: string) {
  return { id: u.id, email: u.email, org, password_set: u.passwordHash !== null, created_at: u.createdAt, disabled_at: u.disabledAt };
}

function linkText(url: string, expiresAt: string): string {
  return `One-time link to set the password (valid ${LINK_VALIDITY_MS / 3_600_000} hours, until ${expiresAt}):\n\n  ${url}\n`;
}

export async function usersCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const parsed = parseCommand(rest, { org: { type: 'string' }, email: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
  const { values } = parsed;
  const out = output(values.json);
  // Every argument is checked before the database is opened (and perhaps created).
  if (!['create', 'link', 'list', 'disable'].includes(action ?? '')) throw new CliError(`expected create, link, list or disable ${helpHint(USAGE)}`, 2);
  takesOnly(parsed, `codebook users ${action}`, action === 'create' ? ['org', 'email'] : action === 'list' ? ['org'] : ['email'], 0, USAGE);
  if (action === 'create') required(values.org, '--org', USAGE);
  if (action !== 'list') required(values.email, '--email', USAGE);
  const d = await deps();
  const linkUrl = (token: string) => `${d.config.publicUrl}/dashboard/set-password?token=${token}`;
  switch (action) {
    case 'create': {
      const org = await existingOrg(d.admin, required(values.org, '--org', USAGE));
      const { user, token, expiresAt } = await createUser(d.admin, org, required(values.email, '--email', USAGE));
      out.result(
        { ...publicUser(user, org.slug), link: linkUrl(token), link_expires_at: expiresAt },
        `User ${user.email} created in ${org.slug}.\n${linkText(linkUrl(token), expiresAt)}`,
      );
      return;
    }
    case 'link': {
      const { user, token, expiresAt } = await newPasswordLink(d.admin, required(values.email, '--email', USAGE));
      out.result({ email: user.email, link: linkUrl(token), link_expires_at: expiresAt }, `For ${user.email}.\n${linkText(linkUrl(token), expiresAt)}`);
      return;
    }
    case 'list': {
      const org = values.org === undefined ? null : await existingOrg(d.admin, values.org);
      const orgs = new Map((await d.store.access.listOrgs()).map((o) => [o.id, o.slug]));
      const users = (await d.store.dashboard.listUsers(org?.id ?? null)).map((u) => publicUser(u, orgs.get(u.orgId) ?? u.orgId));
      out.result(
        users,
        table(
          ['EMAIL', 'ORG', 'PASSWORD SET', 'STATE', 'CREATED'],
          users.map((u) => [u.email, u.org, u.password_set ? 'yes' : 'no', u.disabled_at ? 'disabled' : 'active', u.created_at]),
        ),
      );
      return;
    }
    case 'disable': {
      const { user, disabledNow } = await disableUser(d.admin, required(values.email, '--email', USAGE));
      const org = (await d.store.access.getOrgById(user.orgId))?.slug ?? user.orgId;
      const said = disabledNow
        ? `user ${user.email} disabled; their sessions were ended`
        : `user ${user.email} was already disabled at ${user.disabledAt}; nothing changed`;
      out.result({ ...publicUser(user, org), already_disabled: !disabledNow }, said);
      return;
    }
  }
}
