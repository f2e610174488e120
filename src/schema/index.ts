// Imports every type module so the schema is complete, then builds it. Exports no other values.
import { builder } from './builder.js';
import './scalars.js';
import './errors.js';
import './events.js';
import '../domains/agents/agents.graphql.js';
import '../domains/brains/brains.graphql.js';

export const schema = builder.toSchema({ sortSchema: false });
