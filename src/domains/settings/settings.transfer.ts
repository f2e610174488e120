/**
 * Portable configuration export and import: agents (with their six profile documents),
 * per-agent settings, model connections and MCP connections. Not a backup: conversation
 * originals, Brains, working memory, handoffs, Tiddle, continuity, the Dream diary and events
 * are outside it (docs/operations-data.md names the recovery unit).
 *
 * Secrets are left out unless asked for; then they travel in a separate envelope encrypted with
 * a password (scrypt + AES-256-GCM), never in the settings key's ciphertext (the receiving
 * installation has its own key). Import checks the whole file first, then writes everything in
 * one transaction, and writes only what differs: importing the same file again changes nothing.
 * Import merges: it never removes a record or a stored secret the file does not mention.
 */
import { asc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ValidationError } from '../../lib/errors.js';
import { actorOf, requireOperator, type Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import { agentProfileDocuments, agents, PROFILE_CONTENT_LIMIT, PROFILE_KINDS, type ProfileKind } from '../agents/agents.sql.js';
import { EXPORT_PASSWORD_MIN, openEnvelope, sealEnvelope, SettingsKeyRequiredError, type SecretEnvelope } from './settings.crypto.js';
import { secretSite, type SettingsService } from './settings.service.js';
import { agentSettings, MCP_TRANSPORTS, mcpConnections, MODEL_PURPOSES, modelConnections, SETTINGS_LIMITS } from './settings.sql.js';

export const EXPORT_CATEGORIES = ['agents', 'settings', 'model-connections', 'mcp-connections'] as const;
export type ExportCategory = (typeof EXPORT_CATEGORIES)[number];
/** The seed's other categories, and why this server has nothing to put in them. */
export const NOT_APPLICABLE = {
  'ui-auth': 'Burrow has no UI login of its own: API tokens are stored hashed and are never exported',
  'task-board': 'Burrow keeps no task board',
} as const;
export const EXPORT_FORMAT = 'burrow-configuration';
export const EXPORT_VERSION = 1;

const url = z
  .string()
  .max(SETTINGS_LIMITS.url)
  .regex(/^https?:\/\//, 'an http(s) URL');
const settingName = z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, '1 to 64 characters of a-z, 0-9, _ . -');
const noNul = (s: string) => !s.includes('\u0000');

const agentSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, '1 to 63 characters of a-z, 0-9, _ -'),
  name: z.string().trim().min(1).max(200).refine(noNul, 'no NUL'),
  profile: z.partialRecord(z.enum(PROFILE_KINDS), z.string().max(PROFILE_CONTENT_LIMIT).refine(noNul, 'no NUL')),
});
const settingSchema = z.object({ agentId: agentSchema.shape.id, name: settingName, value: z.json().nullable(), hasSecret: z.boolean() });
const modelSchema = z.object({
  purpose: z.enum(MODEL_PURPOSES),
  url,
  model: z.string().trim().min(1).max(SETTINGS_LIMITS.model),
  timeoutMs: z.number().int().min(SETTINGS_LIMITS.timeoutMinMs).max(SETTINGS_LIMITS.timeoutMaxMs),
  hasSecret: z.boolean(),
});
const mcpSchema = z.object({
  name: settingName,
  url,
  transport: z.enum(MCP_TRANSPORTS),
  enabled: z.boolean(),
  description: z.string().max(SETTINGS_LIMITS.description).refine(noNul, 'no NUL'),
  hasSecret: z.boolean(),
});
const envelopeSchema = z.object({
  kdf: z.literal('scrypt'),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  cipher: z.literal('aes-256-gcm'),
  iv: z.string(),
  tag: z.string(),
  ciphertext: z.string(),
});
const documentSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  categories: z.array(z.enum(EXPORT_CATEGORIES)),
  notApplicable: z.record(z.string(), z.string()).optional(),
  agents: z.array(agentSchema).optional(),
  settings: z.array(settingSchema).optional(),
  'model-connections': z.array(modelSchema).optional(),
  'mcp-connections': z.array(mcpSchema).optional(),
  secrets: envelopeSchema.nullable().optional(),
});
export type ConfigurationDocument = z.infer<typeof documentSchema>;

export interface CategoryCounts {
  category: ExportCategory;
  created: number;
  updated: number;
  unchanged: number;
}

const secretKey = {
  model: (purpose: string) => `model-connections/${purpose}`,
  mcp: (name: string) => `mcp-connections/${name}`,
  setting: (agentId: string, name: string) => `settings/${agentId}/${name}`,
};

export class ConfigurationTransfer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly agentsService: AgentsService,
  ) {}

  async export(
    viewer: Viewer | null,
    options: { categories?: readonly ExportCategory[] | null; includeSecrets?: boolean | null; password?: string | null },
  ): Promise<ConfigurationDocument> {
    requireOperator(viewer);
    const categories = [...new Set(options.categories?.length ? options.categories : EXPORT_CATEGORIES)];
    if (options.includeSecrets) checkPassword(options.password);
    else if (options.password != null) throw new ValidationError('password', 'a password is only used with includeSecrets');
    const secrets: Record<string, string> = {};
    const keep = (key: string, site: string, stored: string | null) => {
      if (options.includeSecrets && stored) secrets[key] = this.settings.openSecret(site, stored);
      return stored !== null;
    };
    const document: ConfigurationDocument = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: this.clock.now().toISOString(),
      categories,
      notApplicable: { ...NOT_APPLICABLE },
    };
    await this.db.transaction(async (tx) => {
      // An agent whose erasure started is absent (docs/agent-erasure.md): neither it nor its settings are exported.
      const erasing = new Set((await tx.select({ id: agents.id }).from(agents).where(isNotNull(agents.erasureStartedAt))).map((a) => a.id));
      if (categories.includes('agents')) {
        const rows = (await tx.select().from(agents).orderBy(asc(agents.id))).filter((a) => !erasing.has(a.id));
        const docs = await tx.select().from(agentProfileDocuments).orderBy(asc(agentProfileDocuments.agentId), asc(agentProfileDocuments.kind));
        document.agents = rows.map((a) => ({
          id: a.id,
          name: a.name,
          profile: Object.fromEntries(docs.filter((d) => d.agentId === a.id).map((d) => [d.kind, d.content])),
        }));
      }
      if (categories.includes('settings')) {
        const rows = (await tx.select().from(agentSettings).orderBy(asc(agentSettings.agentId), asc(agentSettings.name))).filter((s) => !erasing.has(s.agentId));
        document.settings = rows.map((s) => ({
          agentId: s.agentId,
          name: s.name,
          value: (s.value ?? null) as z.infer<typeof settingSchema>['value'],
          hasSecret: keep(secretKey.setting(s.agentId, s.name), secretSite.agent(s.agentId, s.name), s.secret),
        }));
      }
      if (categories.includes('model-connections')) {
        const rows = await tx.select().from(modelConnections).orderBy(asc(modelConnections.purpose));
        document['model-connections'] = rows.map((m) => ({
          purpose: m.purpose as (typeof MODEL_PURPOSES)[number],
          url: m.url,
          model: m.model,
          timeoutMs: m.timeoutMs,
          hasSecret: keep(secretKey.model(m.purpose), secretSite.model(m.purpose), m.apiKeySecret),
        }));
      }
      if (categories.includes('mcp-connections')) {
        const rows = await tx.select().from(mcpConnections).orderBy(asc(mcpConnections.name));
        document['mcp-connections'] = rows.map((m) => ({
          name: m.name,
          url: m.url,
          transport: m.transport as (typeof MCP_TRANSPORTS)[number],
          enabled: m.enabled,
          description: m.description,
          hasSecret: keep(secretKey.mcp(m.name), secretSite.mcp(m.name), m.tokenSecret),
        }));
      }
    });
    document.secrets = options.includeSecrets ? sealEnvelope(options.password!, secrets) : null;
    return document;
  }

  /** Checks the whole file, then writes what differs in one transaction. */
  async import(viewer: Viewer | null, input: { document: unknown; password?: string | null }): Promise<CategoryCounts[]> {
    const operator = requireOperator(viewer);
    const actor = actorOf(operator);
    const document = this.parse(input.document);
    const secrets = await this.secretsOf(document, input.password);

    const counts = new Map<ExportCategory, CategoryCounts>(EXPORT_CATEGORIES.map((c) => [c, { category: c, created: 0, updated: 0, unchanged: 0 }]));
    const count = (category: ExportCategory, outcome: 'created' | 'updated' | 'unchanged') => counts.get(category)![outcome]++;

    await this.db.transaction(async (tx) => {
      for (const agent of document.agents ?? []) {
        const [existing] = await tx.select().from(agents).where(eq(agents.id, agent.id));
        if (!existing) await this.agentsService.ensureAgent(tx, agent.id, agent.name.trim(), actor);
        const documents = Object.entries(agent.profile).map(([kind, content]) => ({ kind: kind as ProfileKind, content: content! }));
        const written = await this.agentsService.documents.writeChangedDocuments(tx, agent.id, documents, actor, 'import');
        count('agents', !existing ? 'created' : written > 0 ? 'updated' : 'unchanged');
      }
      for (const m of document['model-connections'] ?? []) {
        const secret = secrets.get(secretKey.model(m.purpose));
        const [current] = await tx.select().from(modelConnections).where(eq(modelConnections.purpose, m.purpose));
        const same =
          current &&
          current.url === m.url &&
          current.model === m.model.trim() &&
          current.timeoutMs === m.timeoutMs &&
          (secret === undefined || (current.apiKeySecret !== null && this.settings.openSecret(secretSite.model(m.purpose), current.apiKeySecret) === secret));
        if (same) count('model-connections', 'unchanged');
        else {
          await this.settings.setModelConnection(operator, { purpose: m.purpose, url: m.url, model: m.model, timeoutMs: m.timeoutMs, apiKey: { value: secret } }, tx);
          count('model-connections', current ? 'updated' : 'created');
        }
      }
      for (const m of document['mcp-connections'] ?? []) {
        const secret = secrets.get(secretKey.mcp(m.name));
        const [current] = await tx.select().from(mcpConnections).where(eq(mcpConnections.name, m.name));
        const same =
          current &&
          current.url === m.url &&
          current.transport === m.transport &&
          current.enabled === m.enabled &&
          current.description === m.description.trim() &&
          (secret === undefined || (current.tokenSecret !== null && this.settings.openSecret(secretSite.mcp(m.name), current.tokenSecret) === secret));
        if (same) count('mcp-connections', 'unchanged');
        else {
          await this.settings.setMcpConnection(operator, { ...m, token: { value: secret } }, tx);
          count('mcp-connections', current ? 'updated' : 'created');
        }
      }
      for (const s of document.settings ?? []) {
        const secret = secrets.get(secretKey.setting(s.agentId, s.name));
        const [current] = await tx
          .select()
          .from(agentSettings)
          .where(eq(agentSettings.agentId, s.agentId))
          .then((rows) => rows.filter((r) => r.name === s.name));
        const same =
          current &&
          JSON.stringify(current.value ?? null) === JSON.stringify(s.value) &&
          (secret === undefined || (current.secret !== null && this.settings.openSecret(secretSite.agent(s.agentId, s.name), current.secret) === secret));
        if (same) count('settings', 'unchanged');
        else {
          await this.settings.setAgentSetting(operator, { agentId: s.agentId, name: s.name, value: s.value, secret: { value: secret } }, tx);
          count('settings', current ? 'updated' : 'created');
        }
      }
    });
    return document.categories.map((c) => counts.get(c)!);
  }

  /** The file's shape, limits and references; the first problem is reported with its path. */
  private parse(raw: unknown): ConfigurationDocument {
    const parsed = documentSchema.safeParse(typeof raw === 'string' ? safeJson(raw) : raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '');
      throw new ValidationError(
        `document${path ? `.${path}` : ''}`,
        `the file is not a valid Burrow configuration export at ${path || 'its top level'}: ${issue.message}; nothing was imported`,
      );
    }
    const document = parsed.data;
    for (const category of EXPORT_CATEGORIES) {
      const present = document[category] !== undefined;
      if (present !== document.categories.includes(category)) {
        throw new ValidationError(
          `document.${category}`,
          `the file lists categories ${document.categories.join(', ')} but ${present ? 'also carries' : 'lacks'} ${category}; nothing was imported`,
        );
      }
    }
    const unique = (category: string, keys: string[]) => {
      const seen = new Set<string>();
      for (const key of keys) {
        if (seen.has(key)) throw new ValidationError(`document.${category}`, `${category} lists ${key} twice; nothing was imported`);
        seen.add(key);
      }
    };
    unique(
      'agents',
      (document.agents ?? []).map((a) => a.id),
    );
    unique(
      'settings',
      (document.settings ?? []).map((s) => `${s.agentId}/${s.name}`),
    );
    unique(
      'model-connections',
      (document['model-connections'] ?? []).map((m) => m.purpose),
    );
    unique(
      'mcp-connections',
      (document['mcp-connections'] ?? []).map((m) => m.name),
    );
    for (const [i, s] of (document.settings ?? []).entries()) {
      if (s.value === null && !s.hasSecret) throw new ValidationError(`document.settings[${i}]`, 'a setting needs a value or a secret; nothing was imported');
      if (Buffer.byteLength(JSON.stringify(s.value)) > SETTINGS_LIMITS.value) {
        throw new ValidationError(`document.settings[${i}].value`, `value must serialize to at most ${SETTINGS_LIMITS.value} bytes; nothing was imported`, SETTINGS_LIMITS.value);
      }
    }
    return document;
  }

  /** The secrets of the envelope, checked against the records that claim one, and the key. */
  private async secretsOf(document: ConfigurationDocument, password: string | null | undefined): Promise<Map<string, string>> {
    const secrets = new Map<string, string>();
    const known = new Set<string>();
    const agentIds = new Set((document.agents ?? []).map((a) => a.id));
    for (const s of document.settings ?? []) {
      if (!agentIds.has(s.agentId)) {
        const [existing] = await this.db.select({ id: agents.id }).from(agents).where(eq(agents.id, s.agentId));
        if (!existing)
          throw new ValidationError(
            'document.settings',
            `setting ${s.name} belongs to agent ${s.agentId}, which is neither in the file nor in this database; nothing was imported`,
          );
      }
      known.add(secretKey.setting(s.agentId, s.name));
    }
    for (const m of document['model-connections'] ?? []) known.add(secretKey.model(m.purpose));
    for (const m of document['mcp-connections'] ?? []) known.add(secretKey.mcp(m.name));
    if (!document.secrets) {
      if (password != null) throw new ValidationError('password', 'the file carries no secrets envelope; import it without a password');
      return secrets;
    }
    if (password == null) throw new ValidationError('password', 'the file carries a secrets envelope: give its password (or import an export made without secrets)');
    const opened = openEnvelope(password, document.secrets as SecretEnvelope);
    if (!opened) throw new ValidationError('password', 'the password does not open the secrets envelope (wrong password, or the file was altered); nothing was imported');
    for (const [key, value] of Object.entries(opened)) {
      if (!known.has(key)) throw new ValidationError('document.secrets', `the envelope holds a secret for ${key}, which the file does not list; nothing was imported`);
      if (value.length < 1 || value.length > SETTINGS_LIMITS.secret || value.includes('\u0000'))
        throw new ValidationError('document.secrets', `the secret for ${key} is empty, too long or contains NUL`);
      secrets.set(key, value);
    }
    // Secrets are stored encrypted: without a key the import would have to drop them.
    if (secrets.size > 0 && !this.settings.keyConfigured) throw new SettingsKeyRequiredError('document.secrets');
    return secrets;
  }
}

function checkPassword(password: string | null | undefined): void {
  if (password == null) throw new ValidationError('password', 'includeSecrets needs a password to encrypt the secrets envelope');
  if ([...password].length < EXPORT_PASSWORD_MIN) throw new ValidationError('password', `the password must be at least ${EXPORT_PASSWORD_MIN} characters`, EXPORT_PASSWORD_MIN);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ValidationError('document', 'the file is not JSON; nothing was imported');
  }
}
