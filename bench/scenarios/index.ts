/** The bench scenarios by name; `npm run bench` with no --scenario runs DEFAULT_SCENARIOS in this order. */
import { run as archive } from './archive.js';
import { run as conversations } from './conversations.js';
import { run as erase } from './erase.js';
import { run as fanout } from './fanout.js';
import { run as nested } from './nested.js';
import { run as profile } from './profile.js';
import { run as search } from './search.js';
import { run as soak } from './soak.js';
import { run as writes } from './writes.js';
import type { Scenario } from './types.js';

export const SCENARIOS: Record<string, Scenario> = { nested, profile, fanout, writes, search, conversations, archive, erase, soak };

/** Read, write, fan-out and search figures; archive, erase (a million originals each) and soak (30 minutes) run when named. */
export const DEFAULT_SCENARIOS = ['nested', 'profile', 'fanout', 'writes', 'search', 'conversations'];
