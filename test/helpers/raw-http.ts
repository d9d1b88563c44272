/**
 * HTTP/1.1 by hand over node:net, so that tests can send what no HTTP client
 * would (malformed request lines, missing Host, CONNECT, pipelined requests)
 * and read every byte the server answers.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps its values joined with ", ". */
  headers: Map<string, string>;
  /** The body as UTF-8 text. */
  body: string;
}

export interface RawExchangeOptions {
  /** Half-close the connection once the bytes are written (default true). */
  end?: boolean;
  /** Give up waiting for the server to close after this long (default 5 s); what arrived is returned. */
  timeoutMs?: number;
}

export interface RawExchange {
  /** Every byte received, as Latin-1 text (one character per byte). */
  text: string;
  /** False when the server had not closed the connection within the timeout. */
  closed: boolean;
}

/** Opens a connection, writes the bytes, and collects the answer until the server closes. */
export function rawExchange(port: number, bytes: string | Buffer, options: RawExchangeOptions = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (options.end ?? true) socket.end();
    });
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 5000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => finish(true));
    // A reset after the answer (the server closed while bytes were still arriving) is still an answer.
    socket.on('error', () => finish(true));
  });
}

function decodeChunked(text: string, from: number): { body: string; end: number } {
  let body = '';
  let at = from;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd === -1) throw new Error('chunked body cut short');
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error(`bad chunk size ${JSON.stringify(text.slice(at, lineEnd))}`);
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = text.indexOf('\r\n', at);
      return { body, end: trailerEnd === -1 ? text.length : trailerEnd + 2 };
    }
    body += text.slice(at, at + size);
    at += size + 2;
  }
}

/**
 * Every response in what a connection received, in order. `bodiless` tells,
 * per response, whether it answers a HEAD request (no body whatever the headers
 * say); 'maybe' when the server may have refused the request before knowing
 * its method: the bytes that follow tell.
 */
export function parseResponses(text: string, bodiless: (index: number) => boolean | 'maybe' = () => false): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd === -1) throw new Error(`a response without the end of its header: ${JSON.stringify(text.slice(at, at + 200))}`);
    const [statusLine, ...lines] = text.slice(at, headEnd).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine!);
    if (!status) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    at = headEnd + 4;
    const code = Number(status[1]);
    let body = '';
    const noBody = bodiless(responses.length);
    const rest = text.slice(at);
    if (noBody === true || (noBody === 'maybe' && (rest === '' || rest.startsWith('HTTP/1.'))) || code === 204 || code === 304 || (code >= 100 && code < 200)) {
      // No body.
    } else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      body = text.slice(at, at + length);
      if (body.length < length) throw new Error(`body cut short: ${body.length} of ${length} bytes`);
      at += length;
    } else if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) {
      const decoded = decodeChunked(text, at);
      body = decoded.body;
      at = decoded.end;
    } else {
      body = text.slice(at);
      at = text.length;
    }
    responses.push({ status: code, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
  }
  return responses;
}
