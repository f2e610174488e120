import type { CodegenConfig } from '@graphql-codegen/cli';

const shared = {
  scalars: { DateTime: 'string', JSON: 'unknown' },
  enumsAsTypes: true,
  useTypeImports: true,
  avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
  maybeValue: 'T | null',
};

// Two clients from one schema, each with its own documents (fragment names stay apart):
// runtimes get a generic SDK (one typed method per operation in clients/typescript/operations); the operator
// console gets typed document nodes for its own operations (console/src/graphql), used with
// graphql-request and graphql-ws.
const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'clients/typescript/generated/sdk.ts': {
      documents: 'clients/typescript/operations/**/*.graphql',
      plugins: ['typescript-operations', 'typescript-generic-sdk'],
      config: { ...shared, documentMode: 'documentNode', rawRequest: false },
    },
    'console/src/graphql/generated.ts': {
      documents: 'console/src/graphql/*.graphql',
      plugins: ['typescript-operations', 'typed-document-node'],
      config: shared,
    },
  },
};
export default config;
