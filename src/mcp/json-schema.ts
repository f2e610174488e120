/**
 * MCP tool input schemas (JSON Schema, draft 2020-12 subset) built from the same input
 * descriptors as the GraphQL inputs, so limits, enums and descriptions cannot drift apart.
 */
import type { InputField, InputFields } from '../lib/input-spec.js';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

export function jsonSchemaOf(fields: InputFields): JsonSchemaObject {
  const properties: JsonSchemaObject['properties'] = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = fieldSchema(field);
    if (field.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function fieldSchema(field: InputField): Record<string, unknown> {
  const base = { description: field.description };
  switch (field.type) {
    case 'string':
      return { type: 'string', ...bounds({ minLength: field.minLength, maxLength: field.maxLength }), ...base };
    case 'id':
      return { type: 'string', ...base };
    case 'int':
      return { type: 'integer', ...bounds({ minimum: field.minimum, maximum: field.maximum, default: field.default }), ...base };
    case 'boolean':
      return { type: 'boolean', ...base };
    case 'dateTime':
      return { type: 'string', format: 'date-time', ...base };
    case 'enum':
      return { type: 'string', enum: [...field.values], ...base };
    case 'stringList':
      return {
        type: 'array',
        items: { type: 'string', ...bounds({ minLength: field.itemMinLength, maxLength: field.itemMaxLength }) },
        ...bounds({ maxItems: field.maxItems }),
        ...base,
      };
    case 'objectList':
      return { type: 'array', items: jsonSchemaOf(field.fields), ...bounds({ maxItems: field.maxItems }), ...base };
  }
}

/** Only the bounds a descriptor actually has. */
const bounds = (values: Record<string, number | undefined>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
