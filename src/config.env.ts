/**
 * How config files read the environment: every reader trims, treats blank as unset, and on a bad
 * value records a problem naming the variable and returns the default, so every problem is
 * reported at once (ConfigError).
 */
import { z } from 'zod';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Burrow cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The readers of one environment; each adds what is wrong with a value to `problems`. */
export interface EnvReaders {
  read: (name: string) => string | undefined;
  int: (name: string, fallback: number, min: number, max: number) => number;
  bool: (name: string, fallback: boolean) => boolean;
}

export function envReaders(env: Env, problems: string[]): EnvReaders {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
    if (!parsed.success) {
      problems.push(`${name}="${raw}" must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return parsed.data;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name}="${raw}" must be true or false`);
    return fallback;
  };
  return { read, int, bool };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
