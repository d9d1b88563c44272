/**
 * What every dashboard route shares: the cookies, the signed-in session of a
 * request, form fields and sending a page. The plugin (plugin.ts) registers
 * the routes; the routes import these, never the plugin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS, type ActiveSession } from '../services/dashboard/sessions.ts';

export const SESSION_COOKIE = 'cb_session';
export const LOGIN_CSRF_COOKIE = 'cb_login_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in dashboard user's session, when there is one. */
    dashboardSession?: ActiveSession | null;
  }
}

/** A posted form or a query string, as @fastify/formbody and Fastify parse them. */
export type Form = Record<string, string | undefined>;

/** One text field of a posted form; '' when absent or repeated. */
export function formField(body: unknown, name: string): string {
  const value = (body as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export function sessionCookieOptions(request: FastifyRequest) {
  return { path: '/dashboard', httpOnly: true, sameSite: 'lax' as const, secure: isHttps(request), maxAge: SESSION_TTL_MS / 1000 };
}

/** Sends the user to sign in, or returns the session. */
export function requireSession(request: FastifyRequest, reply: FastifyReply): ActiveSession | null {
  const session = request.dashboardSession ?? null;
  if (!session) void reply.redirect('/dashboard/login', 303);
  return session;
}
