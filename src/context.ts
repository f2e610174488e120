/** Per request (HTTP) or per socket operation (WebSocket): who is calling, and the services. */
import type { Viewer } from './auth/viewer.js';
import type { Logger } from './lib/logger.js';
import type { Services } from './services.js';

export interface Context {
  viewer: Viewer | null;
  /** How the operation arrived: 'http' (a plain request or an SSE stream) or 'ws' (graphql-ws). */
  transport: 'http' | 'ws';
  services: Services;
  requestId: string;
  /** The request's Idempotency-Key header (HTTP only; null without one): docs/idempotency.md. */
  idempotencyKey: string | null;
  logger: Logger;
  /**
   * DataLoaders a resolver made for this request, by its field's place in the operation (its
   * resolve info's `fieldNodes`, one array for every item of a list): Agent.profile's. Kept on
   * the context, not in a WeakMap keyed by it: held that way, every request's loaded rows were
   * measured surviving V8's young collections and being promoted (docs/architecture.md,
   * "Per-request state lives on the context").
   */
  loaders?: Map<object, unknown>;
}
