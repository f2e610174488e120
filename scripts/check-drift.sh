#!/usr/bin/env bash
# Fails when the committed generated files differ from what the code generates: schema.graphql
# (from the Pothos schema); the TypeScript client's generated code, trusted-documents manifest,
# schema hash and README operation list; the Python client's generated package; the console's
# typed documents (codegen);
# drizzle/ (table definitions).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s codegen >/dev/null
npx drizzle-kit generate --name drift_check >/dev/null
generated=(schema.graphql console/src/graphql/generated.ts clients/typescript/generated clients/typescript/package.json clients/typescript/README.md clients/python/burrow_client/generated drizzle)
# Compare with what git holds (index), so a staged but uncommitted regeneration also passes.
drift=$( { git diff --name-only -- "${generated[@]}"; git ls-files --others --exclude-standard -- "${generated[@]}"; } )
if [ -n "$drift" ]; then
  echo "Generated files drifted from the code (run 'npm run codegen' / 'npm run db:generate' and commit):"
  echo "$drift"
  git --no-pager diff --stat -- "${generated[@]}"
  exit 1
fi
echo "no drift: schema.graphql, clients/typescript, clients/python, console/src/graphql/generated.ts and drizzle/ match the code"
