/**
 * GraphQL input fields and arguments built from the shared input descriptors
 * (lib/input-spec.ts), so a verb's GraphQL input, its MCP tool schema and the service's limits
 * come from one definition. Enum and nested object fields take their GraphQL type from `types`.
 */
import type { InputOrArgRef } from '@pothos/core';
import type { InputField, InputFields, ValueOf } from '../lib/input-spec.js';
import type { builder } from './builder.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

type Shape<F extends InputField> = F['required'] extends true ? ValueOf<F> : ValueOf<F> | null | undefined;

export type FieldRefs<F extends InputFields, Kind extends 'Arg' | 'InputObject'> = {
  [K in keyof F]: InputOrArgRef<Types, Shape<F[K]>, Kind>;
};

/** What `t` (input object fields) and `t.arg` (arguments) have in common. */
interface FieldMaker {
  string(options: object): unknown;
  id(options: object): unknown;
  int(options: object): unknown;
  boolean(options: object): unknown;
  stringList(options: object): unknown;
  field(options: object): unknown;
}

/** The GraphQL type of each enum or objectList field, by field name. */
export type TypeRefs<F extends InputFields> = {
  [K in keyof F as F[K]['type'] extends 'enum' | 'objectList' ? K : never]: unknown;
};

function build(maker: FieldMaker, fields: InputFields, types: Record<string, unknown>) {
  // `t.arg(options)` is itself the generic maker; input object builders have `t.field(options)`.
  const typed = (options: object) => (typeof maker === 'function' ? (maker as (o: object) => unknown)(options) : maker.field(options));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const options = { required: field.required ?? false, description: field.description };
    switch (field.type) {
      case 'string':
      case 'id':
      case 'int':
      case 'boolean':
      case 'stringList':
        out[name] = maker[field.type](options);
        break;
      case 'dateTime':
        out[name] = typed({ ...options, type: 'DateTime' });
        break;
      case 'enum':
        out[name] = typed({ ...options, type: types[name] });
        break;
      case 'objectList':
        out[name] = typed({ ...options, type: [types[name]] });
        break;
    }
  }
  return out;
}

/** Input object fields: `fields: (t) => inputFieldsFrom(t, spec, { kind: KindEnum })`. */
export function inputFieldsFrom<F extends InputFields>(t: unknown, fields: F, types: TypeRefs<F>): FieldRefs<F, 'InputObject'> {
  return build(t as FieldMaker, fields, types as Record<string, unknown>) as FieldRefs<F, 'InputObject'>;
}

/** Field arguments: `args: argsFrom(t.arg, spec, { kind: KindEnum })`. */
export function argsFrom<F extends InputFields>(arg: unknown, fields: F, types: TypeRefs<F>): FieldRefs<F, 'Arg'> {
  return build(arg as FieldMaker, fields, types as Record<string, unknown>) as FieldRefs<F, 'Arg'>;
}
