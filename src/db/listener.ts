/**
 * One LISTEN connection per instance, shared by every channel (burrow_events for the event hub,
 * burrow_tokens for the token watch), as docs/scaling.md sizes the database: pool + 1.
 *
 * Each `listen` registers a channel on the shared connection, opening it if there is none. When
 * the connection dies, every registration hears `onLost` once and is dropped; each caller then
 * listens again (with its own backoff), and the first to do so opens the next shared connection.
 * The connection closes when its last registration is removed.
 */
import pg from 'pg';

type OnPayload = (payload: string) => void;
type OnLost = (error: Error) => void;

interface Registration {
  channel: string;
  onPayload: OnPayload;
  onLost?: OnLost;
}

interface Shared {
  client: pg.Client;
  ready: Promise<void>;
  registrations: Set<Registration>;
  /** Lost, failed to connect, or closed by its last unlisten: never used again. */
  done: boolean;
}

export function sharedListener(newClient: () => pg.Client) {
  let current: Shared | null = null;

  function open(): Shared {
    const client = newClient();
    const shared: Shared = { client, ready: Promise.resolve(), registrations: new Set(), done: false };
    const lost = (error: Error) => {
      if (shared.done) return;
      shared.done = true;
      if (current === shared) current = null;
      const registrations = [...shared.registrations];
      shared.registrations.clear();
      void client.end().catch(() => {});
      for (const registration of registrations) registration.onLost?.(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('Connection terminated')));
    client.on('notification', (message) => {
      if (!message.payload) return;
      for (const registration of shared.registrations) if (registration.channel === message.channel) registration.onPayload(message.payload);
    });
    shared.ready = client.connect().then(
      () => {},
      async (error) => {
        shared.done = true;
        if (current === shared) current = null;
        await client.end().catch(() => {});
        throw error;
      },
    );
    return shared;
  }

  return async function listen(channel: string, onPayload: OnPayload, onLost?: OnLost): Promise<() => Promise<void>> {
    const shared = current && !current.done ? current : (current = open());
    await shared.ready;
    // LISTEN is idempotent: a second registration of a channel repeats it harmlessly.
    await shared.client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (shared.done) throw new Error('the LISTEN connection was lost while it was being set up');
    const registration: Registration = { channel, onPayload, onLost };
    shared.registrations.add(registration);
    return async () => {
      if (!shared.registrations.delete(registration) || shared.done) return;
      if (shared.registrations.size === 0) {
        shared.done = true;
        if (current === shared) current = null;
        await shared.client.end().catch(() => {});
      } else if (![...shared.registrations].some((r) => r.channel === channel)) {
        await shared.client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
      }
    };
  };
}
