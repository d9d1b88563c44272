/**
 * Log configuration: one line per request, no headers, and any key-shaped
 * text in a URL replaced before it reaches a log line.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { loggableUrl } from './query-keys.ts';

export const serializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: loggableUrl(request.originalUrl) };
  },
  res(reply: { statusCode: number }) {
    return { statusCode: reply.statusCode };
  },
};

/** One line per request, when it completes (none when it arrives). */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const fields = completedFields(request, reply, reply.elapsedTime);
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}

/** The fields of a request's one log line, as the serializers above read them: Fastify's path and the express lane's. */
export function completedFields<Req, Res>(req: Req, res: Res, elapsedMs: number): { req: Req; res: Res; ms: number } {
  return { req, res, ms: Math.round(elapsedMs * 10) / 10 };
}
