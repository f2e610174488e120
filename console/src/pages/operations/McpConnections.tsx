/**
 * MCP connections by name. The bearer token is write-only: its input is never filled in, and the
 * list says only whether one is stored.
 */
import { useRef, useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { humanError } from '../../human-error';
import { ConsoleDeleteMcpConnectionDocument, ConsoleSetMcpConnectionDocument, type ConsoleMcpConnectionFragment, type McpTransport } from '../../graphql/generated';
import { ConfirmDialog } from '../tokens/ConfirmDialog';
import { when } from './format';

interface Props {
  api: Api;
  connections: ConsoleMcpConnectionFragment[];
  announce: (message: string) => void;
  reload: () => Promise<void>;
}

export function McpConnections({ api, connections, announce, reload }: Props) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [transport, setTransport] = useState<McpTransport>('STREAMABLE_HTTP');
  const [enabled, setEnabled] = useState(true);
  const [description, setDescription] = useState('');
  const [token, setToken] = useState('');
  const [clearToken, setClearToken] = useState(false);
  /** The revision Edit read, sent as expectedRevision: a save never overwrites another operator's newer write. */
  const [editing, setEditing] = useState<{ name: string; revision: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<ConsoleMcpConnectionFragment | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const edit = (c: ConsoleMcpConnectionFragment) => {
    setName(c.name);
    setEditing({ name: c.name, revision: c.revision });
    setUrl(c.url);
    setTransport(c.transport);
    setEnabled(c.enabled);
    setDescription(c.description);
    setToken('');
    setClearToken(false);
    setError(null);
    document.getElementById('mcp-url')?.focus();
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = {
        name: name.trim(),
        url: url.trim(),
        transport,
        enabled,
        description,
        ...(token ? { token } : {}),
        ...(clearToken ? { clearToken: true } : {}),
        ...(editing?.name === name.trim() ? { expectedRevision: editing.revision } : {}),
      };
      const r = (await api.request(ConsoleSetMcpConnectionDocument, { input })).setMcpConnection;
      if (r.__typename !== 'SetMcpConnectionSuccess') {
        // Another operator wrote first: the list shows it as it is now (before the message), so Edit reads the newer revision.
        if (r.__typename === 'RevisionConflict') await reload();
        setError(humanError(r));
        return;
      }
      setError(null);
      setToken('');
      setClearToken(false);
      setEditing(null);
      announce(`MCP connection ${r.connection.name} saved (revision ${r.connection.revision}).`);
      await reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (c: ConsoleMcpConnectionFragment) => {
    setBusy(true);
    try {
      const { deleted } = (await api.request(ConsoleDeleteMcpConnectionDocument, { name: c.name })).deleteMcpConnection;
      setDeleting(null);
      setDeleteError(null);
      announce(deleted ? `MCP connection ${c.name} deleted.` : `MCP connection ${c.name} was already gone.`);
      await reload();
      // Its Delete button is gone: focus goes to the section rather than to nowhere.
      heading.current?.focus();
    } catch (err) {
      setDeleteError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="mcp-connections-h">
      <h2 id="mcp-connections-h" tabIndex={-1} ref={heading}>
        MCP connections
      </h2>
      {connections.length === 0 ? (
        <p>No MCP connection is stored.</p>
      ) : (
        <div class="scroll">
          <table class="mcp-connections">
            <caption class="visually-hidden">Stored MCP connections by name</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">URL</th>
                <th scope="col">Transport</th>
                <th scope="col">Enabled</th>
                <th scope="col">Token</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => (
                <tr data-mcp={c.name}>
                  <th scope="row">
                    {c.name}
                    {c.description && <span class="meta"> {c.description}</span>}
                  </th>
                  <td>{c.url}</td>
                  <td>{c.transport === 'SSE' ? 'SSE' : 'Streamable HTTP'}</td>
                  <td>{c.enabled ? 'yes' : 'no'}</td>
                  <td data-secret>{c.hasSecret ? 'set' : 'not set'}</td>
                  <td>
                    {when(c.updatedAt)} by {c.updatedBy}
                  </td>
                  <td class="actions">
                    <button type="button" class="secondary" aria-label={`Edit ${c.name}`} onClick={() => edit(c)}>
                      Edit
                    </button>
                    <button type="button" class="danger" aria-label={`Delete ${c.name}`} onClick={() => (setDeleteError(null), setDeleting(c))}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form class="mcp-connection-form" onSubmit={(e) => void save(e)}>
        <h3>Set an MCP connection</h3>
        <label for="mcp-name">Name</label>
        <input id="mcp-name" required maxLength={64} pattern="[a-z0-9_.\-]+" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="mcp-url">URL</label>
        <input id="mcp-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <label for="mcp-transport">Transport</label>
        <select id="mcp-transport" value={transport} onChange={(e) => setTransport(e.currentTarget.value as McpTransport)}>
          <option value="STREAMABLE_HTTP">Streamable HTTP</option>
          <option value="SSE">SSE</option>
        </select>
        <label for="mcp-description">Description (optional)</label>
        <input id="mcp-description" maxLength={1000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} /> Enabled
        </label>
        <label for="mcp-token">Bearer token (write-only; leave empty to keep the stored one)</label>
        <input id="mcp-token" type="password" autocomplete="new-password" spellcheck={false} value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={clearToken} onChange={(e) => setClearToken(e.currentTarget.checked)} /> Remove the stored token
        </label>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Save MCP connection
        </button>
      </form>

      {deleting && (
        <ConfirmDialog
          title={`Delete the MCP connection ${deleting.name}?`}
          confirmLabel="Delete connection"
          busy={busy}
          error={deleteError}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        >
          <p>The connection to {deleting.url} and its token are removed.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
