// Imports every type module so the schema is complete, then builds it. Exports no other values.
import { builder } from './builder.js';
import { inlineConnectionFields } from './connections.js';
import './scalars.js';
import './errors.js';
import './events.js';
import '../domains/agents/agents.graphql.js';
import '../domains/agents/agents.preferences.graphql.js';
import '../domains/conversations/conversations.graphql.js';
import '../domains/working-memory/working-memory.graphql.js';
import '../domains/handoffs/handoffs.graphql.js';
import '../domains/retention/retention.graphql.js';
import '../domains/continuity/continuity.graphql.js';
import '../domains/agents/agents.counts.graphql.js';
import '../domains/tiddle/tiddle.graphql.js';
import '../domains/brains/brains.graphql.js';
import '../auth/tokens.graphql.js';
import '../domains/settings/settings.graphql.js';
import '../domains/dream-diary/dream-diary.graphql.js';
import '../events/events.graphql.js';
import './event-types.js';

export const schema = inlineConnectionFields(builder.toSchema({ sortSchema: false }));
