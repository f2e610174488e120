/** Who wrote something: shared by every store that records its writers. */
import { builder } from './builder.js';

export type Principal = 'OPERATOR' | 'AGENT';

export const PrincipalKindEnum = builder.enumType('PrincipalKind', {
  description: 'The two kinds of bearer token',
  values: {
    OPERATOR: { description: 'An operator token: acts on every agent' },
    AGENT: { description: 'A token bound to one agent: acts only as that agent' },
  },
});

/** The stored form of an actor: the kind and the agent id or operator token name. */
export interface ActorShape {
  kind: string;
  id: string;
}

export const ActorRef = builder.objectRef<ActorShape>('Actor').implement({
  description: 'The writer of a record, as recorded when it wrote',
  fields: (t) => ({
    kind: t.field({ type: PrincipalKindEnum, description: 'Operator or agent', resolve: (a) => a.kind as Principal }),
    principalId: t.string({
      description: 'The agent id for an agent; the token name for an operator',
      resolve: (a) => a.id,
    }),
  }),
});
