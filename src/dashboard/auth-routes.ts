/** Signing in and out, and setting a password through a one-time link. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { InvalidRequest } from '../errors.ts';
import { endSession, sameToken, startSession } from '../services/dashboard/sessions.ts';
import { passwordLinkWorks } from '../services/dashboard/password-links.ts';
import { PasswordAttemptsThrottled } from '../services/dashboard/password-throttle.ts';
import { INVALID_LINK, setPasswordWithToken, signIn } from '../services/dashboard/users.ts';
import { loginPage, messagePage, setPasswordPage } from './pages/auth.ts';
import { formField, isHttps, LOGIN_CSRF_COOKIE, requireSession, sendPage, SESSION_COOKIE, sessionCookieOptions, type Form } from './requests.ts';

const FORM_TOKEN = /^[\w-]{32}$/;

/**
 * Forms shown before there is a session are protected by a double-submit
 * cookie. A browser that holds one keeps it, so that every sign-in form it has
 * open (two tabs, a form shown again after a mistake) carries the same token.
 */
function issueFormToken(request: FastifyRequest, reply: FastifyReply): string {
  const held = request.cookies[LOGIN_CSRF_COOKIE];
  const token = held !== undefined && FORM_TOKEN.test(held) ? held : randomBytes(24).toString('base64url');
  reply.setCookie(LOGIN_CSRF_COOKIE, token, { path: '/dashboard', httpOnly: true, sameSite: 'strict', secure: isHttps(request) });
  return token;
}

function formTokenValid(request: FastifyRequest): boolean {
  const cookie = request.cookies[LOGIN_CSRF_COOKIE];
  return typeof cookie === 'string' && sameToken(formField(request.body, '_csrf'), cookie);
}

const EXPIRED_FORM = 'This form has expired. Reload the page and try again.';

export async function authRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const userDeps = deps.admin;

  app.get('/login', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard', 303);
    const notice = (request.query as Form).done === 'password' ? 'Your password is set. Sign in with it.' : undefined;
    return sendPage(reply, 200, loginPage({ csrf: issueFormToken(request, reply), notice }));
  });

  app.post('/login', async (request, reply) => {
    const email = formField(request.body, 'email');
    if (!formTokenValid(request)) return sendPage(reply, 403, loginPage({ csrf: issueFormToken(request, reply), error: EXPIRED_FORM, email }));
    let user;
    try {
      user = await signIn(userDeps, email, formField(request.body, 'password'), request.ip);
    } catch (error) {
      if (!(error instanceof PasswordAttemptsThrottled)) throw error;
      reply.header('Retry-After', String(error.retryAfterSeconds));
      return sendPage(reply, 429, loginPage({ csrf: issueFormToken(request, reply), error: error.message, email }));
    }
    if (!user) return sendPage(reply, 401, loginPage({ csrf: issueFormToken(request, reply), error: 'The email or the password is not correct.', email }));
    const { token } = await startSession(userDeps, user);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request));
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/dashboard' });
    return reply.redirect('/dashboard', 303);
  });

  app.post('/logout', async (request, reply) => {
    const session = requireSession(request, reply);
    if (!session) return reply;
    if (!sameToken(formField(request.body, '_csrf'), session.csrfToken)) return sendPage(reply, 403, messagePage('Form expired', EXPIRED_FORM));
    await endSession(userDeps, session.tokenHash);
    reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return reply.redirect('/dashboard/login', 303);
  });

  app.get('/set-password', async (request, reply) => {
    const token = formField(request.query, 'token');
    // Said before the password is typed, not after; the link is checked, not used up.
    if (!(await passwordLinkWorks(userDeps, token))) return sendPage(reply, 400, messagePage('Link not valid', INVALID_LINK));
    return sendPage(reply, 200, setPasswordPage({ csrf: issueFormToken(request, reply), token }));
  });

  app.post('/set-password', async (request, reply) => {
    const token = formField(request.body, 'token');
    const again = (error: string, status: number) => sendPage(reply, status, setPasswordPage({ csrf: issueFormToken(request, reply), token, error }));
    if (!formTokenValid(request)) return again(EXPIRED_FORM, 403);
    const password = formField(request.body, 'password');
    if (password !== formField(request.body, 'confirm')) return again('The two passwords are not the same.', 400);
    try {
      await setPasswordWithToken(userDeps, token, password);
    } catch (error) {
      if (error instanceof InvalidRequest) return again(error.message, 400);
      throw error;
    }
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/dashboard' });
    return reply.redirect('/dashboard/login?done=password', 303);
  });
}
