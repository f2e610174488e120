/**
 * The fan-out bench's baseline server: plain Yoga + graphql-ws + createPubSub, fed by the same
 * NOTIFY as Burrow (one row read per notification, published to every subscriber).
 */
import { setMaxListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { GraphQLScalarType } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { Database } from '../../src/db/database.js';
import { EVENTS_CHANNEL } from '../../src/events/events.service.js';

/** The baseline: plain Yoga + graphql-ws + createPubSub, fed by the same NOTIFY (one row read per notification). */
export async function startBaseline(database: Database) {
  let reads = 0;
  // A thousand listeners on one topic is the point here, not a leak.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  const pubsub = createPubSub<Record<string, [Record<string, unknown>]>>({ eventTarget: eventTarget as never });
  let open = 0;
  const schema = createSchema({
    typeDefs: /* GraphQL */ `
      scalar JSON
      type AgentEvent {
        sequence: Int!
        agentId: String!
        stream: String!
        type: String!
        subjectId: String!
        project: String
        occurredAt: String!
        payload: JSON!
      }
      type Query {
        ok: Boolean
      }
      type Subscription {
        agentEvents(agentId: String!, after: Int): AgentEvent!
      }
    `,
    resolvers: {
      JSON: new GraphQLScalarType({ name: 'JSON', serialize: (value) => value }),
      AgentEvent: { occurredAt: (row: { occurredAt: Date }) => new Date(row.occurredAt).toISOString() },
      Subscription: {
        agentEvents: {
          subscribe: async function* (_: unknown, args: { agentId: string }) {
            open++;
            try {
              yield* pubsub.subscribe(`events:${args.agentId}`);
            } finally {
              open--;
            }
          },
          resolve: (row: unknown) => row,
        },
      },
    },
  });
  const unlisten = await database.listen(EVENTS_CHANNEL, (payload) => {
    const at = payload.lastIndexOf(':');
    const [agentId, sequence] = [payload.slice(0, at), Number(payload.slice(at + 1))];
    reads++;
    void database.pool
      .query(
        'SELECT agent_id AS "agentId", sequence::int AS sequence, stream, type, subject_id AS "subjectId", project, payload, occurred_at AS "occurredAt" FROM agent_events WHERE agent_id = $1 AND sequence = $2',
        [agentId, sequence],
      )
      .then(({ rows }) => rows[0] && pubsub.publish(`events:${agentId}`, rows[0]));
  });
  const yoga = createYoga({ schema, logging: false, graphiql: false });
  const server: Server = createServer((request, response) => void yoga(request, response));
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer(
    {
      execute: (args) => (args.rootValue as { execute: typeof import('graphql').execute }).execute(args),
      subscribe: (args) => (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema: enveloped, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params });
        const document = parse(params.query);
        const errors = validate(enveloped, document);
        if (errors.length) return errors;
        return {
          schema: enveloped,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
    },
    wsServer,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    get open() {
      return open;
    },
    get reads() {
      return reads;
    },
    async stop() {
      await unlisten();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
