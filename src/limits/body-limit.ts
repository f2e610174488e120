/**
 * The request body limit (BURROW_MAX_BODY_BYTES), in place of Yoga's `maxRequestBodySize`.
 *
 * Same rule, cheaper common path: a request with a valid Content-Length at or under the limit
 * cannot carry more (HTTP/1.1 framing: Node's parser delivers exactly that many body bytes and
 * parses anything after them as the next request), so its body is read as it is. Yoga's plugin
 * piped every body through a counting stream, and that stream's clean-up (an AbortController and
 * its AbortError DOMException per request) was about 5 % of a small query's CPU. A body without
 * Content-Length (chunked) is still counted as it arrives and refused once it passes the limit.
 */
import type { Plugin } from 'graphql-yoga';
import { limitExceeded } from './errors.js';

const VARIABLE = 'BURROW_MAX_BODY_BYTES';

const tooLarge = (max: number) => limitExceeded(VARIABLE, `the request body is larger than ${max} bytes`, max, 413);

export function useBodyLimit(max: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      // Node's HTTP parser has already refused a malformed or repeated Content-Length (400).
      const declared = request.headers.get('content-length');
      if (declared != null) {
        if (Number(declared) > max) throw tooLarge(max);
        return;
      }
      if (!requestParser || !request.body) return;
      setRequestParser((req) => requestParser(counted(req, max)));
    },
  };
}

/** The request with a body that errors as soon as more than `max` bytes have arrived. */
function counted(request: Request, max: number): Request {
  let bytes = 0;
  const body = request.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > max) controller.error(tooLarge(max));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request.url, { method: request.method, headers: request.headers, signal: request.signal, body, duplex: 'half' } as RequestInit);
}
