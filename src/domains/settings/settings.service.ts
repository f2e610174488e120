/**
 * Settings: model connections, MCP connections and per-agent settings, operators only. Secrets
 * are write-only: they are encrypted before they reach the database, and what comes back is
 * `hasSecret`, never the value. Writes follow the house revision rule: with expectedRevision
 * the update is one statement that matches it; without, the write creates or replaces.
 */
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { charLength } from '../../lib/text.js';
import { actorOf, requireOperator, type Viewer } from '../../auth/viewer.js';
import { agents } from '../agents/agents.sql.js';
import { decryptSecret, encryptSecret, keyIdOfSecret, SettingsKeyRequiredError, type SettingsKey } from './settings.crypto.js';
import { agentSettings, MCP_TRANSPORTS, mcpConnections, MODEL_PURPOSES, modelConnections, SETTINGS_LIMITS, type ModelPurpose } from './settings.sql.js';

export type ModelConnectionRow = typeof modelConnections.$inferSelect;
export type McpConnectionRow = typeof mcpConnections.$inferSelect;
export type AgentSettingRow = typeof agentSettings.$inferSelect;

/** A secret input: a new value, an explicit removal, or (neither) leave it as it is. */
export interface SecretChange {
  value?: string | null;
  clear?: boolean | null;
}

export interface ModelConnectionInput {
  purpose: ModelPurpose;
  url: string;
  model: string;
  timeoutMs?: number | null;
  apiKey?: SecretChange;
  expectedRevision?: number | null;
}
export interface McpConnectionInput {
  name: string;
  url: string;
  transport?: string | null;
  enabled?: boolean | null;
  description?: string | null;
  token?: SecretChange;
  expectedRevision?: number | null;
}
export interface AgentSettingInput {
  agentId: string;
  name: string;
  value?: unknown;
  secret?: SecretChange;
  expectedRevision?: number | null;
}

/** Where a secret lives: bound into its ciphertext, so a copied ciphertext does not open. */
export const secretSite = {
  model: (purpose: string) => `model_connections/${purpose}/api_key`,
  mcp: (name: string) => `mcp_connections/${name}/token`,
  agent: (agentId: string, name: string) => `agent_settings/${agentId}/${name}/secret`,
};

/** The public view of a row: everything but the secret, which becomes `hasSecret`. */
export function withoutSecret<T extends Record<string, unknown>>(row: T, secretColumn: keyof T) {
  const { [secretColumn]: secret, ...rest } = row;
  return { ...rest, hasSecret: secret != null } as Omit<T, typeof secretColumn> & { hasSecret: boolean };
}

export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly key: SettingsKey | null,
  ) {}

  get keyConfigured(): boolean {
    return this.key !== null;
  }

  status(viewer: Viewer | null) {
    requireOperator(viewer);
    return { keyConfigured: this.key !== null, keyId: this.key?.id ?? null };
  }

  /** Validates a secret change and encrypts a new value. undefined: keep the stored one. */
  sealSecret(field: string, site: string, change: SecretChange | undefined): string | null | undefined {
    if (change?.clear && change.value != null) throw new ValidationError(field, `give either ${field} or its clear flag, not both`);
    if (change?.clear) return null;
    if (change?.value == null) return undefined;
    const value = change.value;
    assertCleanText(field, value, SETTINGS_LIMITS.secret);
    if (value.length < 1 || charLength(value) > SETTINGS_LIMITS.secret)
      throw new ValidationError(field, `${field} must be 1 to ${SETTINGS_LIMITS.secret} characters`, SETTINGS_LIMITS.secret);
    if (!this.key) throw new SettingsKeyRequiredError(field);
    return encryptSecret(this.key, site, value);
  }

  /** Opens a stored secret with the configured key (for the server's own use and exports). */
  openSecret(site: string, stored: string): string {
    return decryptSecret([this.key], site, stored);
  }

  // ---------------------------------------------------------------- model connections

  async listModelConnections(viewer: Viewer | null): Promise<ModelConnectionRow[]> {
    requireOperator(viewer);
    return this.db.select().from(modelConnections).orderBy(asc(modelConnections.purpose));
  }

  /** One model connection by purpose (node(id)), operators only like modelConnections. */
  async getModelConnection(viewer: Viewer | null, purpose: string): Promise<ModelConnectionRow | null> {
    requireOperator(viewer);
    const [row] = await this.db.select().from(modelConnections).where(eq(modelConnections.purpose, purpose));
    return row ?? null;
  }

  async setModelConnection(viewer: Viewer | null, input: ModelConnectionInput, db: DbOrTx = this.db): Promise<ModelConnectionRow> {
    const actor = actorOf(requireOperator(viewer));
    if (!(MODEL_PURPOSES as readonly string[]).includes(input.purpose)) throw new ValidationError('purpose', `purpose must be one of ${MODEL_PURPOSES.join(', ')}`);
    const url = validUrl('url', input.url);
    const model = boundedText('model', input.model, 1, SETTINGS_LIMITS.model);
    const timeoutMs = input.timeoutMs ?? (input.purpose === 'TIDDLE_PROPOSER' ? 30_000 : 5_000);
    if (!Number.isInteger(timeoutMs) || timeoutMs < SETTINGS_LIMITS.timeoutMinMs || timeoutMs > SETTINGS_LIMITS.timeoutMaxMs) {
      throw new ValidationError('timeoutMs', `timeoutMs must be ${SETTINGS_LIMITS.timeoutMinMs} to ${SETTINGS_LIMITS.timeoutMaxMs}`, SETTINGS_LIMITS.timeoutMaxMs);
    }
    const secret = this.sealSecret('apiKey', secretSite.model(input.purpose), input.apiKey);
    const fields = { url, model, timeoutMs, updatedAt: this.clock.now(), updatedBy: actor.id, ...(secret !== undefined ? { apiKeySecret: secret } : {}) };
    return this.write(db, modelConnections, modelConnections.purpose, input.purpose, input.expectedRevision, fields, { purpose: input.purpose }, 'ModelConnectionSetting', (r) =>
      withoutSecret(r, 'apiKeySecret'),
    );
  }

  async deleteModelConnection(viewer: Viewer | null, purpose: ModelPurpose): Promise<boolean> {
    requireOperator(viewer);
    return (await this.db.delete(modelConnections).where(eq(modelConnections.purpose, purpose)).returning()).length > 0;
  }

  // ---------------------------------------------------------------- MCP connections

  async listMcpConnections(viewer: Viewer | null): Promise<McpConnectionRow[]> {
    requireOperator(viewer);
    return this.db.select().from(mcpConnections).orderBy(asc(mcpConnections.name));
  }

  /** One MCP connection by name (node(id)), operators only like mcpConnections. */
  async getMcpConnection(viewer: Viewer | null, name: string): Promise<McpConnectionRow | null> {
    requireOperator(viewer);
    const [row] = await this.db.select().from(mcpConnections).where(eq(mcpConnections.name, name));
    return row ?? null;
  }

  async setMcpConnection(viewer: Viewer | null, input: McpConnectionInput, db: DbOrTx = this.db): Promise<McpConnectionRow> {
    const actor = actorOf(requireOperator(viewer));
    const name = validName('name', input.name);
    const url = validUrl('url', input.url);
    const transport = input.transport ?? 'STREAMABLE_HTTP';
    if (!(MCP_TRANSPORTS as readonly string[]).includes(transport)) throw new ValidationError('transport', `transport must be one of ${MCP_TRANSPORTS.join(', ')}`);
    const description = boundedText('description', input.description ?? '', 0, SETTINGS_LIMITS.description);
    const secret = this.sealSecret('token', secretSite.mcp(name), input.token);
    const fields = {
      url,
      transport,
      enabled: input.enabled ?? true,
      description,
      updatedAt: this.clock.now(),
      updatedBy: actor.id,
      ...(secret !== undefined ? { tokenSecret: secret } : {}),
    };
    return this.write(db, mcpConnections, mcpConnections.name, name, input.expectedRevision, fields, { name }, 'McpConnectionSetting', (r) => withoutSecret(r, 'tokenSecret'));
  }

  async deleteMcpConnection(viewer: Viewer | null, name: string): Promise<boolean> {
    requireOperator(viewer);
    return (await this.db.delete(mcpConnections).where(eq(mcpConnections.name, name)).returning()).length > 0;
  }

  // ---------------------------------------------------------------- per-agent settings

  async listAgentSettings(viewer: Viewer | null, agentId: string): Promise<AgentSettingRow[]> {
    requireOperator(viewer);
    return this.db.select().from(agentSettings).where(eq(agentSettings.agentId, agentId)).orderBy(asc(agentSettings.name));
  }

  /** One per-agent setting (node(id)), operators only like agentSettings: FORBIDDEN even for the agent itself. */
  async getAgentSetting(viewer: Viewer | null, agentId: string, name: string): Promise<AgentSettingRow | null> {
    requireOperator(viewer);
    const [row] = await this.db
      .select()
      .from(agentSettings)
      .where(and(eq(agentSettings.agentId, agentId), eq(agentSettings.name, name)));
    return row ?? null;
  }

  async setAgentSetting(viewer: Viewer | null, input: AgentSettingInput, db: DbOrTx = this.db): Promise<AgentSettingRow> {
    const actor = actorOf(requireOperator(viewer));
    const name = validName('name', input.name);
    const value = input.value === undefined ? undefined : input.value;
    if (value !== undefined && value !== null) {
      const text = JSON.stringify(value);
      if (text.includes('\\u0000')) throw new ValidationError('value', 'value must not contain the NUL character (U+0000)');
      if (Buffer.byteLength(text) > SETTINGS_LIMITS.value)
        throw new ValidationError('value', `value must serialize to at most ${SETTINGS_LIMITS.value} bytes of JSON`, SETTINGS_LIMITS.value);
    }
    const secret = this.sealSecret('secret', secretSite.agent(input.agentId, name), input.secret);
    // Through `db`: inside an import's transaction the embedded pool has no second connection.
    const [agent] = await db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.id, input.agentId), isNull(agents.erasureStartedAt)));
    if (!agent) throw new NotFoundError('Agent', input.agentId);
    const fields = {
      updatedAt: this.clock.now(),
      updatedBy: actor.id,
      ...(value !== undefined ? { value } : {}),
      ...(secret !== undefined ? { secret } : {}),
    };
    const where = and(eq(agentSettings.agentId, input.agentId), eq(agentSettings.name, name))!;
    const insert = { agentId: input.agentId, name, value: value ?? null, secret: secret ?? null };
    try {
      return await this.write(db, agentSettings, where, `${input.agentId}/${name}`, input.expectedRevision, fields, insert, 'AgentSetting', (r) => withoutSecret(r, 'secret'), [
        agentSettings.agentId,
        agentSettings.name,
      ]);
    } catch (error) {
      if (violates(error, 'agent_settings_has_content')) throw new ValidationError('value', 'an agent setting needs a value, a secret or both');
      throw error;
    }
  }

  async deleteAgentSetting(viewer: Viewer | null, agentId: string, name: string): Promise<boolean> {
    requireOperator(viewer);
    return (
      (
        await this.db
          .delete(agentSettings)
          .where(and(eq(agentSettings.agentId, agentId), eq(agentSettings.name, name)))
          .returning()
      ).length > 0
    );
  }

  // ---------------------------------------------------------------- key rotation

  /**
   * Re-encrypts every stored secret under `next`. Secrets already under `next` are left alone,
   * so an interrupted rotation is finished by running it again. One transaction: a secret the
   * current key cannot open stops the rotation with nothing changed.
   */
  async rotateKey(next: SettingsKey): Promise<{ reencrypted: number; alreadyCurrent: number }> {
    const keys = [next, this.key];
    let reencrypted = 0;
    let alreadyCurrent = 0;
    await this.db.transaction(async (tx) => {
      const rotate = (site: string, stored: string): string | null => {
        if (keyIdOfSecret(stored) === next.id) return (alreadyCurrent++, null);
        reencrypted++;
        return encryptSecret(next, site, decryptSecret(keys, site, stored));
      };
      for (const row of await tx.select().from(modelConnections).where(isNotNull(modelConnections.apiKeySecret)).for('update')) {
        const sealed = rotate(secretSite.model(row.purpose), row.apiKeySecret!);
        if (sealed) await tx.update(modelConnections).set({ apiKeySecret: sealed }).where(eq(modelConnections.purpose, row.purpose));
      }
      for (const row of await tx.select().from(mcpConnections).where(isNotNull(mcpConnections.tokenSecret)).for('update')) {
        const sealed = rotate(secretSite.mcp(row.name), row.tokenSecret!);
        if (sealed) await tx.update(mcpConnections).set({ tokenSecret: sealed }).where(eq(mcpConnections.name, row.name));
      }
      for (const row of await tx.select().from(agentSettings).where(isNotNull(agentSettings.secret)).for('update')) {
        const sealed = rotate(secretSite.agent(row.agentId, row.name), row.secret!);
        if (sealed)
          await tx
            .update(agentSettings)
            .set({ secret: sealed })
            .where(and(eq(agentSettings.agentId, row.agentId), eq(agentSettings.name, row.name)));
      }
    });
    return { reencrypted, alreadyCurrent };
  }

  // ---------------------------------------------------------------- shared write path

  /**
   * Create-or-replace without expectedRevision; with it, one UPDATE that must match the
   * revision, and only when it matches nothing one read to tell NotFound from a conflict.
   */
  private async write<R extends { revision: number }>(
    db: DbOrTx,
    table: any,
    keyOrWhere: unknown,
    id: string,
    expectedRevision: number | null | undefined,
    fields: Record<string, unknown>,
    insertKey: Record<string, unknown>,
    resource: string,
    publicView: (row: R) => unknown,
    conflictTarget?: unknown[],
  ): Promise<R> {
    const where = isColumn(keyOrWhere) ? eq(keyOrWhere as never, id) : (keyOrWhere as ReturnType<typeof eq>);
    if (expectedRevision != null) {
      const [updated] = await db
        .update(table)
        .set({ ...fields, revision: sql`${table.revision} + 1` })
        .where(and(where, eq(table.revision, expectedRevision)))
        .returning();
      if (updated) return updated as R;
      const [current] = await db.select().from(table).where(where);
      if (!current) throw new NotFoundError(resource, id);
      throw new RevisionConflictError(resource, id, expectedRevision, (current as R).revision, null, publicView(current as R));
    }
    const rows = (await db
      .insert(table)
      .values({ ...insertKey, ...fields, revision: 1 })
      .onConflictDoUpdate({ target: (conflictTarget ?? [keyOrWhere]) as never, set: { ...fields, revision: sql`${table.revision} + 1` } })
      .returning()) as R[];
    return rows[0];
  }
}

const violates = (error: unknown, constraint: string): boolean => {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if ((current as { constraint?: unknown }).constraint === constraint) return true;
  }
  return false;
};

const isColumn = (value: unknown) => typeof value === 'object' && value !== null && 'columnType' in value;

function boundedText(field: string, value: string, min: number, max: number): string {
  assertCleanText(field, value, max);
  const text = value.trim();
  const length = charLength(text);
  if (length < min || length > max) throw new ValidationError(field, `${field} must be ${min} to ${max} characters`, max);
  return text;
}

function validUrl(field: string, value: string): string {
  const url = boundedText(field, value, 1, SETTINGS_LIMITS.url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(field, `${field} must be an http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ValidationError(field, `${field} must be an http(s) URL`);
  // Credentials belong in the secret, where they are encrypted: never in a readable URL.
  if (parsed.username || parsed.password) throw new ValidationError(field, `${field} must not carry credentials; put them in the secret field`);
  return url;
}

function validName(field: string, value: string): string {
  if (!/^[a-z0-9][a-z0-9_.-]{0,63}$/.test(value))
    throw new ValidationError(field, `${field} must be 1 to 64 characters of a-z, 0-9, _ . - (starting with a letter or digit)`, SETTINGS_LIMITS.name);
  return value;
}
