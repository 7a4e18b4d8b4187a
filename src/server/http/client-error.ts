// Requests Node's HTTP parser refuses before the service sees them (a malformed request line or
// header, headers over the size limit, headers too slow): Node would answer a bare 400 or 431
// without a body. They get the contract's error body and a request id like any other error.
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError, type Logger } from '../handler.js';
import { JSON_CONTENT_TYPE } from './answer.js';
import { errorBody } from './errors.js';
import { newRequestId } from './request-id.js';

interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** What the slow-client bounds add: the headers' bound in words, and where a cut is told. */
export interface HeadersTimeoutReport {
  /** "30s": the bound the 408 names. */
  within: string;
  /** Called once per connection cut for headers that did not arrive in time (serve's warning line). */
  cut(remoteAddress: string | undefined): void;
}

/** The error for a parser's refusal, as Node itself would have answered it (status for status). */
function refusalOf(err: ParserError, headersWithin: string | undefined): ServiceError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError(
        431,
        'headers_too_large',
        'the request headers are larger than the service accepts (16 KiB in all); send fewer or shorter headers',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ServiceError(413, 'payload_too_large', 'the chunk extensions of the request body are larger than the service accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError(
        408,
        'request_timeout',
        `the request headers did not arrive ${headersWithin ? `within ${headersWithin}` : 'in time'}; send the request again`,
      );
    default:
      return new ServiceError(400, 'bad_request', `the request is not valid HTTP/1.1${err.reason ? `: ${err.reason.toLowerCase()}` : ''}`);
  }
}

/** Whether an answer has begun on this socket already (then nothing more can be written to it). */
function answering(socket: Duplex): boolean {
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return message?.headersSent === true;
}

export function answerParserErrors(server: Server, log: Logger, headersTimeout?: HeadersTimeoutReport): void {
  server.on('clientError', (err: ParserError, socket: Duplex & { remoteAddress?: string }) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') headersTimeout?.cut(socket.remoteAddress);
    // A client that went away, or a socket already answering: there is no one to tell.
    if (err.code === 'ECONNRESET' || !socket.writable || answering(socket)) {
      socket.destroy();
      return;
    }
    const id = newRequestId();
    const refusal = refusalOf(err, headersTimeout?.within);
    const body = JSON.stringify(errorBody(refusal, id));
    log.info('request', { request_id: id, method: null, path: null, status: refusal.status, parser_error: err.code ?? 'unknown' });
    // What was read of the request cannot be trusted to end where a next one starts: close.
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n` +
        `content-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
