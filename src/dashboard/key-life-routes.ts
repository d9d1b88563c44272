/** The dashboard's pages for keys through their life: roll, the request log, the organisation's settings. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { InvalidRequest } from '../errors.ts';
import { listKeys } from '../services/access/admin.ts';
import { exposureWarnings } from '../services/access/exposure.ts';
import { orgSettings, parseGrace, rollKey, updateOrgSettings } from '../services/access/key-life.ts';
import { pageRequestLog, type RequestLogFilter } from '../services/access/request-log.ts';
import { sameToken, type ActiveSession } from '../services/dashboard/sessions.ts';
import { keyState } from '../domain/key-life.ts';
import { messagePage } from './pages/auth.ts';
import { exposureBanner, rollConfirmPage, rolledPage } from './pages/key-life.ts';
import { requestsPage } from './pages/requests.ts';
import { settingsPage } from './pages/settings.ts';
import { newFormNonce, useFormNonce } from './form-nonces.ts';
import { formField, requireSession, sendPage } from './requests.ts';

export async function keyLifeRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { admin } = deps;

  function postedSession(request: FastifyRequest, reply: FastifyReply): ActiveSession | null {
    const session = requireSession(request, reply);
    if (!session) return null;
    if (!sameToken(formField(request.body, '_csrf'), session.csrfToken)) {
      void sendPage(reply, 403, messagePage('Form expired', 'This form has expired or did not come from this site. Reload the page and try again.'));
      return null;
    }
    return session;
  }

  const ownKey = async (session: ActiveSession, id: string) => (await listKeys(admin, session.org)).find((k) => k.id === id) ?? null;
  const banner = async (session: ActiveSession) => exposureBanner(await exposureWarnings(admin, session.org));

  app.get('/keys/:id/roll', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    const key = await ownKey(session, (request.params as { id: string }).id);
    if (!key) return sendPage(reply, 404, messagePage('Not found', 'There is no such key.'));
    if (keyState(key, deps.now()) !== 'active') return reply.redirect('/dashboard/keys', 303);
    return sendPage(reply, 200, rollConfirmPage(session, key, newFormNonce()));
  });

  app.post('/keys/:id/roll', async (request, reply) => {
    const session = postedSession(request, reply);
    if (!session) return reply;
    const key = await ownKey(session, (request.params as { id: string }).id);
    if (!key) return sendPage(reply, 404, messagePage('Not found', 'There is no such key.'));
    // A replayed form is refused; a roll confirmed again on a fresh page rolls again (docs/decisions.md).
    if (!(await useFormNonce(deps, request, reply))) return reply;
    try {
      const rolled = await rollKey(admin, key.id, parseGrace(formField(request.body, 'grace')), session.user.email, session.org);
      return sendPage(reply, 200, rolledPage(session, rolled.key, rolled.info, rolled.previous));
    } catch (error) {
      if (error instanceof InvalidRequest) return sendPage(reply, 400, rollConfirmPage(session, key, newFormNonce(), error.message));
      throw error;
    }
  });

  app.get('/requests', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    // Entries are written every second; write this instance's now so the page is exact.
    await deps.requestLog.flush();
    const filter: RequestLogFilter = {
      keyId: formField(request.query, 'key') || undefined,
      status: formField(request.query, 'status') || undefined,
      requestId: formField(request.query, 'request_id').trim() || undefined,
      cursor: formField(request.query, 'cursor') || undefined,
    };
    const view = { keys: await listKeys(admin, session.org), filter, settings: await orgSettings(admin, session.org), banner: await banner(session) };
    try {
      return sendPage(reply, 200, requestsPage(session, { ...view, result: await pageRequestLog(admin, session.org, filter) }));
    } catch (error) {
      if (!(error instanceof InvalidRequest)) throw error;
      return sendPage(reply, 400, requestsPage(session, { ...view, filter: {}, result: { entries: [], nextCursor: null }, error: error.message }));
    }
  });

  app.get('/settings', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    return sendPage(reply, 200, settingsPage(session, await orgSettings(admin, session.org)));
  });

  app.post('/settings', async (request, reply) => {
    const session = postedSession(request, reply);
    if (!session) return reply;
    const wanted = {
      autoRevokeExposed: formField(request.body, 'auto_revoke_exposed') === '1',
      requestLogDays: Number(formField(request.body, 'request_log_days')),
      requestLogMax: Number(formField(request.body, 'request_log_max')),
    };
    try {
      const saved = await updateOrgSettings(admin, session.org, wanted, session.user.email);
      await deps.requestLog.prune(session.org.id);
      return sendPage(reply, 200, settingsPage(session, saved, { saved: true }));
    } catch (error) {
      if (error instanceof InvalidRequest) return sendPage(reply, 400, settingsPage(session, await orgSettings(admin, session.org), { error: error.message }));
      throw error;
    }
  });
}
