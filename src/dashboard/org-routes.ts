/** The signed-in pages: overview, keys (create, revoke), audit log, password. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KEY_MODES, type KeyMode } from '../domain/access.ts';
import type { Deps } from '../deps.ts';
import { InvalidRequest } from '../errors.ts';
import { windowsAt } from '../domain/windows.ts';
import { listKeys, revokeKey, usageReport } from '../services/access/admin.ts';
import { exposureWarnings } from '../services/access/exposure.ts';
import { createExpiringKey, parseExpiry } from '../services/access/key-life.ts';
import { usageByKey } from '../services/access/key-usage.ts';
import { exposureBanner } from './pages/key-life.ts';
import { keyUsageSection } from './pages/key-usage.ts';
import { resumeSession, sameToken, startSession, type ActiveSession } from '../services/dashboard/sessions.ts';
import { PasswordAttemptsThrottled } from '../services/dashboard/password-throttle.ts';
import { changePassword } from '../services/dashboard/users.ts';
import { auditPage, passwordPage } from './pages/account.ts';
import { messagePage } from './pages/auth.ts';
import { keyCreatedPage, keysPage, revokeConfirmPage } from './pages/keys.ts';
import { overviewPage } from './pages/overview.ts';
import { newFormNonce, useFormNonce } from './form-nonces.ts';
import { formField, requireSession, sendPage, SESSION_COOKIE, sessionCookieOptions } from './requests.ts';

/**
 * The expiry the create form asks for: its choice, or the date with "On a date…".
 * A date beside another choice is ambiguous (a date picked, then Never left as
 * it was): refused, rather than a key made to last longer than the user meant.
 */
function askedExpiry(body: unknown): string {
  const expires = formField(body, 'expires');
  const on = formField(body, 'expires_on').trim();
  if (expires === 'date') {
    if (on === '') throw new InvalidRequest('Choose the date the key expires on, or another expiry.');
    return on;
  }
  if (on !== '')
    throw new InvalidRequest(`A date was given, but Expires is not "On a date…". Choose "On a date…" to end the key on that date, or clear the date.`);
  return expires;
}

export async function orgRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { admin, store } = deps;

  /** The session of a POST whose CSRF token matches; otherwise a redirect or a 403 page was sent. */
  function postedSession(request: FastifyRequest, reply: Parameters<typeof requireSession>[1]): ActiveSession | null {
    const session = requireSession(request, reply);
    if (!session) return null;
    if (!sameToken(formField(request.body, '_csrf'), session.csrfToken)) {
      void sendPage(reply, 403, messagePage('Form expired', 'This form has expired or did not come from this site. Reload the page and try again.'));
      return null;
    }
    return session;
  }

  const renderKeys = async (session: ActiveSession, error?: string, notice?: string) => {
    const plan = (await store.access.getPlan(session.org.plan))!;
    const life = { now: deps.now(), banner: exposureBanner(await exposureWarnings(admin, session.org)) };
    return keysPage(session, await listKeys(admin, session.org), plan, newFormNonce(), error, notice, life);
  };

  /** The keys page says so when a revocation found the key already revoked (the form sent twice, or two tabs). */
  const alreadyRevokedNotice = async (session: ActiveSession, keyId: string | undefined): Promise<string | undefined> => {
    if (keyId === undefined) return undefined;
    const key = await store.access.getKey(keyId);
    if (!key || key.orgId !== session.org.id || key.revokedAt === null) return undefined;
    return `The key ${key.name} (${key.displayPrefix}…) was already revoked on ${key.revokedAt.slice(0, 16).replace('T', ' ')} UTC; nothing changed.`;
  };
  const alreadyRevoked = (keyId: string) => `/dashboard/keys?already_revoked=${encodeURIComponent(keyId)}`;

  app.get('/', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    // Counts are written every second; write them now so the page is exact.
    await deps.limiter.flush();
    await deps.usage.flush();
    const now = deps.now();
    const month = new Date(now).toISOString().slice(0, 7);
    const extra = { banner: exposureBanner(await exposureWarnings(admin, session.org)), byKey: keyUsageSection(await usageByKey(admin, session.org)) };
    return sendPage(reply, 200, overviewPage(session, await usageReport(admin, session.org, month), windowsAt(now).monthResetsAt, extra));
  });

  app.get('/keys', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    const notice = await alreadyRevokedNotice(session, formField(request.query, 'already_revoked') || undefined);
    return sendPage(reply, 200, await renderKeys(session, undefined, notice));
  });

  app.post('/keys', async (request, reply) => {
    const session = postedSession(request, reply);
    if (!session) return reply;
    if (!(await useFormNonce(deps, request, reply))) return reply;
    const mode = formField(request.body, 'mode') || 'live';
    if (!(KEY_MODES as readonly string[]).includes(mode)) return sendPage(reply, 400, await renderKeys(session, 'Choose live or test.'));
    try {
      const expiresAt = parseExpiry(askedExpiry(request.body), deps.now());
      const { key, info } = await createExpiringKey(
        admin,
        session.org,
        { mode: mode as KeyMode, name: formField(request.body, 'name'), expiresAt },
        session.user.email,
      );
      return sendPage(reply, 200, keyCreatedPage(session, key, info));
    } catch (error) {
      if (error instanceof InvalidRequest) return sendPage(reply, 400, await renderKeys(session, error.message));
      throw error;
    }
  });

  app.get('/keys/:id/revoke', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    const key = await store.access.getKey((request.params as { id: string }).id);
    if (!key || key.orgId !== session.org.id) return sendPage(reply, 404, messagePage('Not found', 'There is no such key.'));
    if (key.revokedAt !== null) return reply.redirect(alreadyRevoked(key.id), 303);
    return sendPage(reply, 200, revokeConfirmPage(session, key));
  });

  app.post('/keys/:id/revoke', async (request, reply) => {
    const session = postedSession(request, reply);
    if (!session) return reply;
    const id = (request.params as { id: string }).id;
    try {
      const { key, revokedNow } = await revokeKey(admin, id, session.org, session.user.email);
      // Already revoked (the form sent twice, even at once): nothing changed, so nothing to record.
      if (!revokedNow) return reply.redirect(alreadyRevoked(key.id), 303);
    } catch (error) {
      if (error instanceof InvalidRequest) return sendPage(reply, 404, messagePage('Not found', 'There is no such key.'));
      throw error;
    }
    return reply.redirect('/dashboard/keys', 303);
  });

  app.get('/audit', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    return sendPage(reply, 200, auditPage(session, await store.dashboard.listAudit(session.org.id, 200)));
  });

  app.get('/password', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    return sendPage(reply, 200, passwordPage(session));
  });

  app.post('/password', async (request, reply) => {
    const session = postedSession(request, reply);
    if (!session) return reply;
    const next = formField(request.body, 'next');
    if (next !== formField(request.body, 'confirm')) return sendPage(reply, 400, passwordPage(session, { error: 'The two new passwords are not the same.' }));
    try {
      await changePassword(admin, session.user, formField(request.body, 'current'), next, request.ip);
    } catch (error) {
      if (error instanceof PasswordAttemptsThrottled) {
        reply.header('Retry-After', String(error.retryAfterSeconds));
        return sendPage(reply, 429, passwordPage(session, { error: error.message }));
      }
      if (error instanceof InvalidRequest) return sendPage(reply, 400, passwordPage(session, { error: error.message }));
      throw error;
    }
    // The change ended every session of the user; this one continues in a new session.
    const fresh = await startSession(admin, session.user);
    reply.setCookie(SESSION_COOKIE, fresh.token, sessionCookieOptions(request));
    const resumed = await resumeSession(admin, fresh.token);
    return sendPage(reply, 200, passwordPage(resumed!, { done: true }));
  });
}
