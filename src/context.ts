/** Per request (HTTP) or per socket operation (WebSocket): who is calling, and the services. */
import type { Viewer } from './auth/viewer.js';
import type { Logger } from './lib/logger.js';
import type { Services } from './services.js';

export interface Context {
  viewer: Viewer | null;
  services: Services;
  requestId: string;
  logger: Logger;
}
