/**
 * One definition of an agent verb's input: type, limits and the description a model reads.
 * The GraphQL input fields (schema/inputs.ts) and the MCP tool schemas (mcp/json-schema.ts) are
 * both built from these descriptors, and the limits in them are the constants the services
 * enforce, so no transport carries its own copy. No graphql import here: services may use it.
 */
import { parseInstant } from './as-of.js';
import { ValidationError } from './errors.js';

interface Common {
  description: string;
  required?: boolean;
}

export type InputField =
  | (Common & { type: 'string'; minLength?: number; maxLength?: number })
  /** A GraphQL ID; a string everywhere else. */
  | (Common & { type: 'id' })
  | (Common & { type: 'int'; minimum?: number; maximum?: number; default?: number })
  | (Common & { type: 'boolean' })
  /** GraphQL's DateTime; an ISO-8601 string in JSON, parsed to a Date. */
  | (Common & { type: 'dateTime' })
  | (Common & { type: 'enum'; values: readonly string[] })
  | (Common & { type: 'stringList'; maxItems?: number; itemMinLength?: number; itemMaxLength?: number })
  | (Common & { type: 'objectList'; maxItems?: number; fields: InputFields });

export type InputFields = Record<string, InputField>;

export type ValueOf<F extends InputField> = F extends { type: 'string' | 'id' }
  ? string
  : F extends { type: 'int' }
    ? number
    : F extends { type: 'boolean' }
      ? boolean
      : F extends { type: 'dateTime' }
        ? Date
        : F extends { type: 'enum'; values: readonly (infer V)[] }
          ? V
          : F extends { type: 'stringList' }
            ? string[]
            : F extends { type: 'objectList'; fields: infer Inner extends InputFields }
              ? InputOf<Inner>[]
              : never;

/** The value a verb receives: required fields present, optional ones possibly null or absent. */
export type InputOf<F extends InputFields> = {
  [K in keyof F as F[K]['required'] extends true ? K : never]: ValueOf<F[K]>;
} & {
  [K in keyof F as F[K]['required'] extends true ? never : K]?: ValueOf<F[K]> | null;
};

/** "6000" -> "6,000", the way every limit is written in descriptions. */
export const formatLimit = (value: number) => value.toLocaleString('en-US');

/**
 * Checks the shape of arguments that arrive as plain JSON (MCP tool calls): an object, no unknown
 * names, required fields present, each value of its type and enum. Limits are not checked here:
 * the services enforce them for every transport.
 */
export function parseInput<F extends InputFields>(fields: F, value: unknown, path = ''): InputOf<F> {
  if (value === undefined || value === null) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(path || 'arguments', 'arguments must be a JSON object');
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!(name in fields)) {
      throw new ValidationError(`${path}${name}`, `unknown argument "${path}${name}"; the accepted arguments are ${Object.keys(fields).join(', ')}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const at = `${path}${name}`;
    const given = record[name];
    if (given === undefined || given === null) {
      if (field.required) throw new ValidationError(at, `${at} is required`);
      continue;
    }
    out[name] = parseValue(field, given, at);
  }
  return out as InputOf<F>;
}

function parseValue(field: InputField, value: unknown, at: string): unknown {
  const wrong = (what: string) => new ValidationError(at, `${at} must be ${what}`);
  switch (field.type) {
    case 'string':
    case 'id':
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong('a whole number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value;
    case 'dateTime':
      if (typeof value !== 'string') throw wrong('an ISO-8601 date and time (a string)');
      return parseInstant(value, at);
    case 'enum':
      if (typeof value !== 'string' || !field.values.includes(value)) throw wrong(`one of ${field.values.join(', ')}`);
      return value;
    case 'stringList':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw wrong('a list of strings');
      return value;
    case 'objectList':
      if (!Array.isArray(value)) throw wrong('a list of objects');
      return value.map((item, index) => parseInput(field.fields, item, `${at}.${index}.`));
  }
}
