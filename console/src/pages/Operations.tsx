/**
 * Operations: the stored model and MCP connections (secrets write-only: never shown, only whether
 * one is set), the configuration export and import, the continuity recovery queue and the Dream
 * diary of an agent.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../api';
import { ConsoleConnectionsDocument, type ConsoleConnectionsQuery } from '../graphql/generated';
import type { PageProps } from '../page-props';
import { ConfigurationTransfer } from './operations/ConfigurationTransfer';
import { DreamDiary } from './operations/DreamDiary';
import { McpConnections } from './operations/McpConnections';
import { ModelConnections } from './operations/ModelConnections';
import { RecoveryQueue } from './operations/RecoveryQueue';

export function OperationsPage({ api, agents, announce }: PageProps) {
  const [data, setData] = useState<ConsoleConnectionsQuery | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    try {
      setData(await api.request(ConsoleConnectionsDocument, {}));
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
  };
  useEffect(() => void load(), [api]);

  return (
    <div class="operations">
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {data && !data.settingsStatus.keyConfigured && (
        <p class="warning">The server has no settings key (BURROW_SETTINGS_KEY): connections without a secret can be stored, secrets cannot.</p>
      )}
      {data && (
        <>
          <ModelConnections api={api} connections={data.modelConnections} announce={announce} reload={load} />
          <McpConnections api={api} connections={data.mcpConnections} announce={announce} reload={load} />
        </>
      )}
      <ConfigurationTransfer api={api} announce={announce} reload={load} />
      <RecoveryQueue api={api} announce={announce} />
      <DreamDiary api={api} agents={agents} announce={announce} />
    </div>
  );
}
