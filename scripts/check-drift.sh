#!/usr/bin/env bash
# Fails when the committed generated files differ from what the code generates:
# schema.graphql (from the Pothos schema), clients/typescript/generated (codegen), drizzle/ (table definitions).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s codegen >/dev/null
npx drizzle-kit generate --name drift_check >/dev/null
# Compare with what git holds (index), so a staged but uncommitted regeneration also passes.
drift=$( { git diff --name-only -- schema.graphql clients/typescript/generated drizzle; git ls-files --others --exclude-standard -- schema.graphql clients/typescript/generated drizzle; } )
if [ -n "$drift" ]; then
  echo "Generated files drifted from the code (run 'npm run codegen' / 'npm run db:generate' and commit):"
  echo "$drift"
  git --no-pager diff --stat -- schema.graphql clients/typescript/generated drizzle
  exit 1
fi
echo "no drift: schema.graphql, clients/typescript/generated and drizzle/ match the code"
