/**
 * Errors about a variable never repeat its value. GraphQL's variable coercion (and graphql-jit's
 * compiled copy of it) writes the whole value into the message: `Variable "$i" got invalid value
 * { agentId: …, secret: "…", bogus: 1 }; Field "bogus" is not defined…`. For inputs that carry a
 * secret or a password (setAgentSetting, setModelConnection, setMcpConnection, export and import
 * of the configuration) that sent the secret back into responses, logs and proxies. Such errors
 * are rewritten from the variable's definition: the variable's name, the path to the bad part
 * and the reason, never the value. The happy path pays nothing: only results that carry such an
 * error are rewritten. HTTP, SSE and graphql-ws results all pass these hooks.
 */
import {
  coerceInputValue,
  getOperationAST,
  type GraphQLError,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLList,
  type GraphQLNonNull,
  type GraphQLSchema,
} from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const VARIABLE_ERROR = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)" got invalid value /;

interface Execution {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
}

const printPath = (path: readonly (string | number)[]) => path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');

// Types are told apart by their tag, not instanceof (as in schema/text-policy-plugin.ts).
const kindOf = (type: GraphQLInputType) => (type as { [Symbol.toStringTag]: string })[Symbol.toStringTag];
const isListType = (type: GraphQLInputType): type is GraphQLList<GraphQLInputType> => kindOf(type) === 'GraphQLList';
const isInputObjectType = (type: GraphQLInputType): type is GraphQLInputObjectType => kindOf(type) === 'GraphQLInputObjectType';
const nullable = (type: GraphQLInputType): GraphQLInputType => (kindOf(type) === 'GraphQLNonNull' ? (type as GraphQLNonNull<GraphQLInputType>).ofType : type);

/** The input type at `path` inside a variable of type `type`, or null when the path leaves it. */
function typeAt(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLInputType | null {
  let current: GraphQLInputType = type;
  for (const key of path) {
    const inner = nullable(current);
    if (typeof key === 'number' && isListType(inner)) current = inner.ofType;
    else if (typeof key === 'string' && isInputObjectType(inner) && inner.getFields()[key]) current = inner.getFields()[key].type;
    else return null;
  }
  return current;
}

/**
 * The reason, without the value. Reasons about an input object or a list (an unknown or missing
 * field, not an object) name fields and types only; a scalar's or enum's reason quotes the value
 * (`String cannot represent a non string value: …`), so it is replaced by the type expected.
 */
function reasonWithoutValue(reason: string, type: GraphQLInputType | null): string {
  if (type && (isInputObjectType(nullable(type)) || isListType(nullable(type)))) return reason;
  return type ? `expected a value of type "${String(type)}"` : "the value does not fit the variable's type";
}

/**
 * The operation's variable errors, written again from the variables' definitions without their
 * values. All of them at once: graphql-jit names a nested part by its field (`Variable
 * "$password"`), not by the variable the request declared.
 */
function variableErrors(execution: Execution, located: GraphQLError): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const operation = getOperationAST(execution.document, execution.operationName ?? undefined);
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(execution.schema, definition.type as never) as GraphQLInputType | undefined;
    const value = execution.variableValues?.[name];
    if (!type || value === undefined) continue; // absent: graphql's own message quotes no value
    const error = (message: string) => createGraphQLError(message, { nodes: definition, extensions: { code: 'BAD_REQUEST' } });
    try {
      coerceInputValue(value, type, (path, _invalid, reason) => {
        const at = path.length > 0 ? ` at "${name}${printPath(path)}"` : '';
        errors.push(error(`Variable "$${name}" got invalid value${at}; ${reasonWithoutValue(reason.message, typeAt(type, path))}`));
      });
    } catch {
      errors.push(error(`Variable "$${name}" got invalid value`));
    }
  }
  // Never an empty list where the executor found a fault.
  return errors.length > 0 ? errors : [createGraphQLError('a variable got an invalid value', { nodes: located.nodes, extensions: { code: 'BAD_REQUEST' } })];
}

function hideValues<R>(execution: Execution, result: R): R {
  const errors = (result as ExecutionResult | null)?.errors;
  const first = Array.isArray(errors) ? errors.find((error) => VARIABLE_ERROR.test(error.message)) : undefined;
  if (!errors || !first) return result;
  return { ...result, errors: [...errors.filter((error) => !VARIABLE_ERROR.test(error.message)), ...variableErrors(execution, first)] };
}

export function useNoValuesInVariableErrors(): Plugin {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: ({ result, setResult }) => {
        const hidden = hideValues(args as Execution, result);
        if (hidden !== result) setResult(hidden);
      },
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: ({ result, setResult }) => {
        const hidden = hideValues(args as Execution, result);
        if (hidden !== result) setResult(hidden as typeof result);
      },
    }),
  };
}
