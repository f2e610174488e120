/**
 * The operator console (console/, built by `npm run build:console` into console/dist at setup)
 * served at /console on the API's port. The page talks only to this origin: the Content-Security-
 * Policy allows scripts, styles, images and connections (fetch and WebSocket) from 'self' alone,
 * so even an injected script could not send a token elsewhere. The token never travels in a
 * cookie: the page keeps it in sessionStorage and sends it as a header.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, normalize, relative, sep } from 'node:path';
import { packagePath } from './lib/package-path.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CONSOLE_PATH = '/console';
export const CONSOLE_DIST = packagePath('console/dist/');

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export const isConsolePath = (url: string | undefined) => {
  const path = (url ?? '/').split('?')[0];
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, cache: string) {
  res.writeHead(status, { 'content-type': type, 'cache-control': cache, ...SECURITY_HEADERS });
  res.end(body);
}

/**
 * GET/HEAD only. /console and /console/ answer index.html (no-store: it names the hashed assets of
 * the current build); /console/assets/* answer the file with its content type, cached for good
 * because the name carries the content hash. Anything else under /console is a 404, never a file
 * outside console/dist.
 */
export function createConsoleHandler(dist = CONSOLE_DIST) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', 'no-store');
    }
    const path = decodeURIComponentSafe((req.url ?? '/').split('?')[0].split('#')[0]);
    if (path === null) return send(res, 400, 'text/plain; charset=utf-8', 'bad path\n', 'no-store');
    const rest = path.slice(CONSOLE_PATH.length).replace(/^\/+/, '');
    if (!existsSync(join(dist, 'index.html'))) {
      return send(res, 503, 'text/plain; charset=utf-8', 'the console is not built: run `npm run build:console` (npm ci runs it)\n', 'no-store');
    }
    if (rest === '' || rest === 'index.html') {
      const html = await readFile(join(dist, 'index.html'));
      return send(res, 200, CONTENT_TYPES['.html'], req.method === 'HEAD' ? '' : html, 'no-store');
    }
    const file = normalize(join(dist, rest));
    const type = CONTENT_TYPES[extname(file)];
    // Only files under dist/assets, by their resolved path (so no "..", encoded or not, leaves it).
    if (!relative(dist, file).startsWith(`assets${sep}`) || !type) {
      return send(res, 404, 'text/plain; charset=utf-8', 'not found\n', 'no-store');
    }
    try {
      const body = await readFile(file);
      return send(res, 200, type, req.method === 'HEAD' ? '' : body, 'public, max-age=31536000, immutable');
    } catch {
      return send(res, 404, 'text/plain; charset=utf-8', 'not found\n', 'no-store');
    }
  };
}

function decodeURIComponentSafe(value: string): string | null {
  try {
    const decoded = decodeURIComponent(value);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}
