/** What loadConfig refuses in `env`: every problem it reports at once, or none. */
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config.env.js';

export function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
