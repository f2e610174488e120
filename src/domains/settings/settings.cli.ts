/**
 * `burrow settings …`, `burrow export`, `burrow import`: the operator's commands over the same
 * services as GraphQL. Secrets and passwords are read from stdin or a file, never from argv
 * (which other users of the machine can see and shells keep in history).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Viewer } from '../../auth/viewer.js';
import type { SettingsKey } from './settings.crypto.js';
import type { SettingsService } from './settings.service.js';
import { EXPORT_CATEGORIES, type ConfigurationTransfer, type ExportCategory } from './settings.transfer.js';
import { MODEL_PURPOSES, type ModelPurpose } from './settings.sql.js';

export const SETTINGS_USAGE = `  settings status                           whether BURROW_SETTINGS_KEY is set, and its key id
  settings list [AGENT_ID]                  model and MCP connections (or one agent's settings); secrets show as hasSecret
  settings set-model PURPOSE --url URL --model NAME [--timeout-ms N] [--api-key-stdin | --clear-api-key]
                                            PURPOSE: ${MODEL_PURPOSES.join(' | ')}
  settings set-mcp NAME --url URL [--transport STREAMABLE_HTTP|SSE] [--disabled] [--description TEXT] [--token-stdin | --clear-token]
  settings set-agent AGENT_ID NAME [--value JSON] [--secret-stdin | --clear-secret]
  settings delete-model PURPOSE | delete-mcp NAME | delete-agent AGENT_ID NAME
  settings rotate-key                       re-encrypt every stored secret from BURROW_SETTINGS_KEY to BURROW_SETTINGS_NEW_KEY
  export [--categories a,b] [--include-secrets (--password-file F | --password-stdin)] [--out FILE]
                                            categories: ${EXPORT_CATEGORIES.join(', ')} (default all); not a backup
  import FILE [--password-file F | --password-stdin]
                                            check the whole file, then write what differs (repeat-safe)`;

export const cliOperator = (name: string): Viewer => ({
  principal: 'OPERATOR',
  tokenId: name,
  tokenName: name,
  agentId: null,
  scope: null,
  sessionId: null,
  conversationId: null,
});

const out = (line: string) => process.stdout.write(`${line}\n`);

function readStdinLine(what: string): string {
  const text = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (!text) throw new Error(`${what}: nothing arrived on stdin`);
  return text;
}

function passwordOf(values: { 'password-file'?: string; 'password-stdin'?: boolean }): string | null {
  if (values['password-file']) return readFileSync(values['password-file'], 'utf8').replace(/\r?\n$/, '');
  if (values['password-stdin']) return readStdinLine('the password');
  return null;
}

export async function settingsCommand(args: string[], settings: SettingsService, newKey: SettingsKey | null): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      model: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'api-key-stdin': { type: 'boolean' },
      'clear-api-key': { type: 'boolean' },
      transport: { type: 'string' },
      disabled: { type: 'boolean' },
      description: { type: 'string' },
      'token-stdin': { type: 'boolean' },
      'clear-token': { type: 'boolean' },
      value: { type: 'string' },
      'secret-stdin': { type: 'boolean' },
      'clear-secret': { type: 'boolean' },
    },
  });
  const operator = cliOperator('cli:settings');
  const need = (index: number, what: string) => {
    const value = positionals[index];
    if (!value) throw new Error(`settings ${action} needs ${what}`);
    return value;
  };
  switch (action) {
    case 'status': {
      const status = settings.status(operator);
      out(
        status.keyConfigured
          ? `settings key: configured (key id ${status.keyId})`
          : 'settings key: none (BURROW_SETTINGS_KEY unset): secrets cannot be written; everything else works',
      );
      return;
    }
    case 'list': {
      if (positionals[0]) {
        for (const s of await settings.listAgentSettings(operator, positionals[0])) {
          out(`${s.agentId}\t${s.name}\tvalue ${JSON.stringify(s.value ?? null)}\thasSecret ${s.secret !== null}\trevision ${s.revision}`);
        }
        return;
      }
      for (const m of await settings.listModelConnections(operator)) {
        out(`model ${m.purpose}\t${m.url}\t${m.model}\ttimeout ${m.timeoutMs} ms\thasSecret ${m.apiKeySecret !== null}\trevision ${m.revision}`);
      }
      for (const m of await settings.listMcpConnections(operator)) {
        out(`mcp ${m.name}\t${m.url}\t${m.transport}\t${m.enabled ? 'enabled' : 'disabled'}\thasSecret ${m.tokenSecret !== null}\trevision ${m.revision}`);
      }
      return;
    }
    case 'set-model': {
      const purpose = need(0, `PURPOSE (${MODEL_PURPOSES.join(' | ')})`) as ModelPurpose;
      const row = await settings.setModelConnection(operator, {
        purpose,
        url: values.url ?? '',
        model: values.model ?? '',
        timeoutMs: values['timeout-ms'] ? Number(values['timeout-ms']) : null,
        apiKey: { value: values['api-key-stdin'] ? readStdinLine('the API key') : null, clear: values['clear-api-key'] },
      });
      out(`model ${row.purpose} saved at revision ${row.revision} (hasSecret ${row.apiKeySecret !== null}); it applies at the next start unless an env variable overrides it`);
      return;
    }
    case 'set-mcp': {
      const row = await settings.setMcpConnection(operator, {
        name: need(0, 'NAME'),
        url: values.url ?? '',
        transport: values.transport,
        enabled: !values.disabled,
        description: values.description,
        token: { value: values['token-stdin'] ? readStdinLine('the token') : null, clear: values['clear-token'] },
      });
      out(`mcp ${row.name} saved at revision ${row.revision} (hasSecret ${row.tokenSecret !== null})`);
      return;
    }
    case 'set-agent': {
      let value: unknown;
      if (values.value !== undefined) {
        try {
          value = JSON.parse(values.value);
        } catch {
          throw new Error('--value must be JSON (e.g. --value \'"text"\' or --value 42)');
        }
      }
      const row = await settings.setAgentSetting(operator, {
        agentId: need(0, 'AGENT_ID'),
        name: need(1, 'NAME'),
        value,
        secret: { value: values['secret-stdin'] ? readStdinLine('the secret') : null, clear: values['clear-secret'] },
      });
      out(`agent ${row.agentId} setting ${row.name} saved at revision ${row.revision} (hasSecret ${row.secret !== null})`);
      return;
    }
    case 'delete-model':
      out((await settings.deleteModelConnection(operator, need(0, 'PURPOSE') as ModelPurpose)) ? 'deleted' : 'nothing to delete');
      return;
    case 'delete-mcp':
      out((await settings.deleteMcpConnection(operator, need(0, 'NAME'))) ? 'deleted' : 'nothing to delete');
      return;
    case 'delete-agent':
      out((await settings.deleteAgentSetting(operator, need(0, 'AGENT_ID'), need(1, 'NAME'))) ? 'deleted' : 'nothing to delete');
      return;
    case 'rotate-key': {
      if (!settings.keyConfigured) throw new Error('rotate-key needs the current key in BURROW_SETTINGS_KEY');
      if (!newKey) throw new Error('rotate-key needs the new key in BURROW_SETTINGS_NEW_KEY (32 bytes, base64 or hex; e.g. `openssl rand -base64 32`)');
      const result = await settings.rotateKey(newKey);
      out(
        `re-encrypted ${result.reencrypted} secrets under key ${newKey.id} (${result.alreadyCurrent} already were); now start Burrow with BURROW_SETTINGS_KEY set to the new key`,
      );
      return;
    }
    default:
      throw new Error(`usage:\n${SETTINGS_USAGE}`);
  }
}

export async function exportCommand(args: string[], transfer: ConfigurationTransfer): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      categories: { type: 'string' },
      'include-secrets': { type: 'boolean' },
      'password-file': { type: 'string' },
      'password-stdin': { type: 'boolean' },
      out: { type: 'string' },
    },
  });
  const categories = values.categories?.split(',').map((c) => c.trim()) ?? null;
  for (const c of categories ?? []) {
    if (!(EXPORT_CATEGORIES as readonly string[]).includes(c)) throw new Error(`unknown category "${c}": choose from ${EXPORT_CATEGORIES.join(', ')}`);
  }
  const password = passwordOf(values);
  if (values['include-secrets'] && password === null) throw new Error('--include-secrets requires a password: --password-file FILE or --password-stdin');
  const document = await transfer.export(cliOperator('cli:export'), {
    categories: categories as ExportCategory[] | null,
    includeSecrets: values['include-secrets'] ?? false,
    password,
  });
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (values.out) {
    writeFileSync(values.out, text, { mode: 0o600 });
    process.stderr.write(`exported ${document.categories.join(', ')} to ${values.out}${document.secrets ? ' (secrets in a password-encrypted envelope)' : ' (no secrets)'}\n`);
  } else process.stdout.write(text);
}

export async function importCommand(args: string[], transfer: ConfigurationTransfer): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'password-file': { type: 'string' }, 'password-stdin': { type: 'boolean' } },
  });
  if (!positionals[0]) throw new Error('import needs FILE (an export document)');
  const counts = await transfer.import(cliOperator('cli:import'), { document: readFileSync(positionals[0], 'utf8'), password: passwordOf(values) });
  for (const c of counts) out(`${c.category}\tcreated ${c.created}\tupdated ${c.updated}\tunchanged ${c.unchanged}`);
}
