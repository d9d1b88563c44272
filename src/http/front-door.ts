/**
 * Requests that Node or Fastify would otherwise answer in a shape of their own,
 * or not at all: CONNECT (which Node hands over as a bare socket), an HTTP/1.1
 * request without Host (which Node refuses with an empty 400) and one with two
 * Host lines or a Host that is no host (which it accepts), an Expect other
 * than 100-continue (Node's bare 417), and requests that arrive while the
 * server drains (Fastify's own 503). Each gets the one
 * error shape and a Request-Id, through the app's hooks and error handlers.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { BatchedResponse } from './batched-response.ts';
import { hostProblem, type HostProblem } from './host-field.ts';

/** Seconds a client should wait before retrying a request refused while the server stops. */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

/** Node's http server options: Host is checked by the app (see rejectBadHost) instead; responses are written at the end of the turn (batched-response.ts). */
export const httpServerOptions = { requireHostHeader: false, ServerResponse: BatchedResponse };

/**
 * Answers a CONNECT request through the app, as any other method: under /v1 the
 * key is checked first, then 405 with Allow; elsewhere 404. This service is no
 * proxy, so the connection is closed after the answer.
 */
export function answerConnect(app: FastifyInstance): (request: IncomingMessage, socket: Duplex) => void {
  return (request, socket) => {
    socket.on('error', () => socket.destroy());
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
    response.on('finish', () => {
      response.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
      socket.end();
    });
    app.routing(request, response);
  };
}

/**
 * RFC 9110 §10.1.1 lets a server ignore an expectation it does not know. Node
 * instead answers a bare 417 (no Request-Id, no body) unless someone listens:
 * hand such a request to the 'request' listeners, whichever are installed then
 * (the express lane's, or Fastify's), so it is served as any other, through
 * every check.
 */
export function ignoreUnknownExpectations(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
}

const HOST_REFUSALS: Record<HostProblem, string> = {
  missing: 'An HTTP/1.1 request must carry a Host header.',
  repeated: 'Send one Host header; this request has more than one.',
  invalid: 'The Host header must be a host name or address, with an optional port, such as example.com, 127.0.0.1:8080 or [::1]:8080.',
};

/** RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host, and to one with two Host lines or a Host that is no host. */
export function rejectBadHost(request: FastifyRequest): void {
  const problem = hostProblem(request.raw);
  if (problem !== null) throw new ApiError('invalid_parameter', HOST_REFUSALS[problem], { headers: { Connection: 'close' } });
}

/**
 * From the moment the app starts closing (SIGTERM), requests that still arrive
 * on open connections are refused with 503 and the connection is closed, so
 * that a load balancer sends them to another instance.
 */
export function drainingGuard(app: FastifyInstance): { refuse: (request: FastifyRequest) => void; draining: () => boolean } {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  return {
    draining: () => draining,
    refuse: () => {
      if (!draining) return;
      throw new ApiError(
        'service_unavailable',
        'This instance is shutting down. Retry after the number of seconds in Retry-After; another instance will answer.',
        {
          headers: { 'Retry-After': String(DRAINING_RETRY_AFTER_SECONDS), Connection: 'close' },
        },
      );
    },
  };
}
