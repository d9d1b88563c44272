/**
 * Log configuration: one line per request, no headers, and any key-shaped
 * text in a URL replaced before it reaches a log line.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export const KEY_SHAPE = /svc_(?:live|test)_[A-Za-z0-9]{32}/g;
/** Also catches keys whose underscores or letters were percent-encoded. */
const KEY_SHAPE_LOOSE = /svc(?:_|%5f)(?:live|test)(?:_|%5f)[A-Za-z0-9%]{32,}/gi;

export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPE, '[REDACTED]').replace(KEY_SHAPE_LOOSE, '[REDACTED]');
}

export const serializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactKeys(request.url) };
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
    const fields = { req: request, res: reply, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
