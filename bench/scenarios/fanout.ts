import type { ScenarioOptions, ScenarioResult } from './types.js';

export async function run(_options: ScenarioOptions): Promise<ScenarioResult> {
  return { scenario: 'fanout', figures: [], notes: ['not built on this branch'] };
}
