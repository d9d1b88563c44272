/**
 * One-time form tokens (nonces) of the forms that show a new key once: create
 * a key, roll a key. The same form sent again (a reload after the POST, a
 * double click, Back then submit) must not make another key nobody sees, so a
 * nonce is used up by the first POST that carries it, and a replay is
 * answered 409 without a key.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { messagePage } from './pages/auth.ts';
import { formField, sendPage } from './requests.ts';

/** How long a used nonce is remembered: longer than any form stays open (a session lasts 12 hours). */
const NONCE_MEMORY_MS = 24 * 60 * 60 * 1000;

/** A fresh nonce for a form's hidden `nonce` field. */
export function newFormNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** Uses up the posted form's nonce; when it is missing or was used before, sends the 409 page and returns false. */
export async function useFormNonce(deps: Pick<Deps, 'store' | 'now'>, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const now = deps.now();
  const nonce = formField(request.body, 'nonce');
  if (nonce !== '' && (await deps.store.dashboard.useNonce(nonce, new Date(now).toISOString(), new Date(now - NONCE_MEMORY_MS).toISOString()))) return true;
  void sendPage(
    reply,
    409,
    messagePage(
      'Key already created',
      'This form was already sent, so its key was created and shown once; it cannot be shown again. Find it in the list of keys, and revoke it if you did not keep it.',
    ),
  );
  return false;
}
