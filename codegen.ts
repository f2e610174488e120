import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed operations + a generic SDK (one typed method per operation in clients/typescript/operations).
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: 'clients/typescript/operations/**/*.graphql',
  generates: {
    'clients/typescript/generated/sdk.ts': {
      plugins: ['typescript-operations', 'typescript-generic-sdk'],
      config: {
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
        documentMode: 'documentNode',
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        maybeValue: 'T | null',
        rawRequest: false,
      },
    },
  },
};
export default config;
