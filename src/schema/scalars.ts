import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 instant in UTC',
  serialize: (value) => (value as Date).toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return date;
  },
  parseLiteral: (ast) => {
    const date = ast.kind === Kind.STRING ? new Date(ast.value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
});
