import { randomBytes } from 'node:crypto';
import { parseSettingsKey, type SettingsKey } from '../../src/domains/settings/settings.crypto.js';

/** A fresh random settings key, as BURROW_SETTINGS_KEY would give it. */
export const newKey = (): SettingsKey => parseSettingsKey(randomBytes(32).toString('base64')) as SettingsKey;
