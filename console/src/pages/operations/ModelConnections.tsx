/**
 * Model connections: one per purpose (Brain embeddings, Tiddle proposer). The API key is
 * write-only: its input is never filled in, and the list says only whether one is stored.
 */
import { useRef, useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { humanError } from '../../human-error';
import { ConsoleDeleteModelConnectionDocument, ConsoleSetModelConnectionDocument, type ConsoleModelConnectionFragment, type ModelPurpose } from '../../graphql/generated';
import { ConfirmDialog } from '../tokens/ConfirmDialog';
import { when } from './format';

const PURPOSES: { value: ModelPurpose; label: string }[] = [
  { value: 'BRAIN_EMBEDDINGS', label: 'Brain embeddings' },
  { value: 'TIDDLE_PROPOSER', label: 'Tiddle proposer' },
];
const purposeLabel = (p: ModelPurpose) => PURPOSES.find((x) => x.value === p)?.label ?? p;

interface Props {
  api: Api;
  connections: ConsoleModelConnectionFragment[];
  announce: (message: string) => void;
  reload: () => Promise<void>;
}

export function ModelConnections({ api, connections, announce, reload }: Props) {
  const [purpose, setPurpose] = useState<ModelPurpose>('BRAIN_EMBEDDINGS');
  const [url, setUrl] = useState('');
  const [model, setModel] = useState('');
  const [timeoutMs, setTimeoutMs] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  /** The revision Edit read, sent as expectedRevision: a save never overwrites another operator's newer write. */
  const [editing, setEditing] = useState<{ purpose: ModelPurpose; revision: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<ConsoleModelConnectionFragment | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const edit = (c: ConsoleModelConnectionFragment) => {
    setPurpose(c.purpose);
    setEditing({ purpose: c.purpose, revision: c.revision });
    setUrl(c.url);
    setModel(c.model);
    setTimeoutMs(String(c.timeoutMs));
    setApiKey('');
    setClearKey(false);
    setError(null);
    document.getElementById('model-url')?.focus();
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = {
        purpose,
        url: url.trim(),
        model: model.trim(),
        ...(timeoutMs.trim() ? { timeoutMs: Number(timeoutMs) } : {}),
        ...(apiKey ? { apiKey } : {}),
        ...(clearKey ? { clearApiKey: true } : {}),
        ...(editing?.purpose === purpose ? { expectedRevision: editing.revision } : {}),
      };
      const r = (await api.request(ConsoleSetModelConnectionDocument, { input })).setModelConnection;
      if (r.__typename !== 'SetModelConnectionSuccess') {
        // Another operator wrote first: the list shows it as it is now (before the message), so Edit reads the newer revision.
        if (r.__typename === 'RevisionConflict') await reload();
        setError(humanError(r));
        return;
      }
      setError(null);
      setApiKey('');
      setClearKey(false);
      setEditing(null);
      announce(`Model connection ${purposeLabel(purpose)} saved (revision ${r.connection.revision}). It applies at the next start.`);
      await reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (c: ConsoleModelConnectionFragment) => {
    setBusy(true);
    try {
      const { deleted } = (await api.request(ConsoleDeleteModelConnectionDocument, { purpose: c.purpose })).deleteModelConnection;
      setDeleting(null);
      setDeleteError(null);
      announce(deleted ? `Model connection ${purposeLabel(c.purpose)} deleted.` : `Model connection ${purposeLabel(c.purpose)} was already gone.`);
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
    <section class="panel" aria-labelledby="model-connections-h">
      <h2 id="model-connections-h" tabIndex={-1} ref={heading}>
        Model connections
      </h2>
      {connections.length === 0 ? (
        <p>No model connection is stored: the environment variables (or nothing) apply.</p>
      ) : (
        <div class="scroll">
          <table class="model-connections">
            <caption class="visually-hidden">Stored model connections, one per purpose</caption>
            <thead>
              <tr>
                <th scope="col">Purpose</th>
                <th scope="col">URL</th>
                <th scope="col">Model</th>
                <th scope="col">Timeout</th>
                <th scope="col">API key</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => (
                <tr data-purpose={c.purpose}>
                  <th scope="row">{purposeLabel(c.purpose)}</th>
                  <td>{c.url}</td>
                  <td>{c.model}</td>
                  <td>{c.timeoutMs} ms</td>
                  <td data-secret>{c.hasSecret ? 'set' : 'not set'}</td>
                  <td>
                    {when(c.updatedAt)} by {c.updatedBy}
                  </td>
                  <td class="actions">
                    <button type="button" class="secondary" aria-label={`Edit ${purposeLabel(c.purpose)}`} onClick={() => edit(c)}>
                      Edit
                    </button>
                    <button type="button" class="danger" aria-label={`Delete ${purposeLabel(c.purpose)}`} onClick={() => (setDeleteError(null), setDeleting(c))}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form class="model-connection-form" onSubmit={(e) => void save(e)}>
        <h3>Set a model connection</h3>
        <label for="model-purpose">Purpose</label>
        <select id="model-purpose" value={purpose} onChange={(e) => setPurpose(e.currentTarget.value as ModelPurpose)}>
          {PURPOSES.map((p) => (
            <option value={p.value}>{p.label}</option>
          ))}
        </select>
        <label for="model-url">URL</label>
        <input id="model-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://api.example.com/v1" />
        <label for="model-name">Model</label>
        <input id="model-name" required maxLength={200} value={model} onInput={(e) => setModel(e.currentTarget.value)} />
        <label for="model-timeout">Timeout in milliseconds (optional)</label>
        <input id="model-timeout" type="number" min={50} max={600000} value={timeoutMs} onInput={(e) => setTimeoutMs(e.currentTarget.value)} />
        <label for="model-api-key">API key (write-only; leave empty to keep the stored one)</label>
        <input id="model-api-key" type="password" autocomplete="new-password" spellcheck={false} value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={clearKey} onChange={(e) => setClearKey(e.currentTarget.checked)} /> Remove the stored API key
        </label>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Save model connection
        </button>
      </form>

      {deleting && (
        <ConfirmDialog
          title={`Delete the ${purposeLabel(deleting.purpose)} connection?`}
          confirmLabel="Delete connection"
          busy={busy}
          error={deleteError}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        >
          <p>The stored connection to {deleting.url} and its API key are removed. At the next start the environment variables apply, or nothing.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
