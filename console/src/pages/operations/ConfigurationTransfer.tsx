/**
 * Configuration export and import: the portable configuration (agents with their profiles,
 * per-agent settings, model and MCP connections) downloaded as one JSON file, and such a file
 * uploaded to import it. Not a backup: the page says what the file leaves out. Secrets travel
 * only when asked for, in an envelope encrypted with a password; the password is never kept.
 */
import { useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { humanError } from '../../human-error';
import {
  ConsoleExportConfigurationDocument,
  ConsoleImportConfigurationDocument,
  type ConfigurationCategory,
  type ConsoleImportConfigurationMutation,
} from '../../graphql/generated';

const CATEGORY_LABELS: Record<ConfigurationCategory, string> = {
  AGENTS: 'Agents and profiles',
  SETTINGS: 'Per-agent settings',
  MODEL_CONNECTIONS: 'Model connections',
  MCP_CONNECTIONS: 'MCP connections',
};

type Counts = Extract<ConsoleImportConfigurationMutation['importConfiguration'], { __typename: 'ImportConfigurationSuccess' }>['counts'];

interface Props {
  api: Api;
  announce: (message: string) => void;
  /** The connections shown above may have changed. */
  reload: () => Promise<void>;
}

/** The file name carries the UTC time of the export, so several exports do not overwrite each other. */
const fileName = (now: Date) => `burrow-configuration-${now.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`;

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ConfigurationTransfer({ api, announce, reload }: Props) {
  const [withSecrets, setWithSecrets] = useState(false);
  const [exportPassword, setExportPassword] = useState('');
  const [exportError, setExportError] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [importPassword, setImportPassword] = useState('');
  const [importError, setImportError] = useState<string | null>(null);
  const [counts, setCounts] = useState<{ file: string; counts: Counts } | null>(null);
  const [busy, setBusy] = useState(false);

  const exportFile = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = withSecrets ? { includeSecrets: true, password: exportPassword } : {};
      const r = (await api.request(ConsoleExportConfigurationDocument, { input })).exportConfiguration;
      if (r.__typename !== 'ExportConfigurationSuccess') return setExportError(humanError(r));
      const name = fileName(new Date());
      download(name, `${JSON.stringify(r.document, null, 2)}\n`);
      setExportError(null);
      setExportPassword('');
      announce(`Configuration exported to ${name}${withSecrets ? ', secrets encrypted with the password' : ', without secrets'}.`);
    } catch (err) {
      setExportError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const importFile = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      // The text as it is: the server says when it is not JSON, with the same sentence as the CLI.
      const document = await file.text();
      const input = { document, ...(importPassword ? { password: importPassword } : {}) };
      const r = (await api.request(ConsoleImportConfigurationDocument, { input })).importConfiguration;
      if (r.__typename !== 'ImportConfigurationSuccess') {
        setCounts(null);
        return setImportError(humanError(r));
      }
      setImportError(null);
      setImportPassword('');
      setCounts({ file: file.name, counts: r.counts });
      const changed = r.counts.reduce((n, c) => n + c.created + c.updated, 0);
      announce(`Imported ${file.name}: ${changed === 0 ? 'nothing differed, nothing was changed' : `${changed} ${changed === 1 ? 'item' : 'items'} created or updated`}.`);
      await reload();
    } catch (err) {
      setImportError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel configuration-transfer" aria-labelledby="configuration-h">
      <h2 id="configuration-h">Configuration export and import</h2>
      <p>
        One JSON file with the agents and their profiles, per-agent settings, and the model and MCP connections. It is not a backup: conversations, Brains, working memory,
        handoffs, continuity runs, the Dream diary and tokens are not in it.
      </p>

      <form class="configuration-export" onSubmit={(e) => void exportFile(e)}>
        <h3>Export</h3>
        <label class="check">
          <input type="checkbox" checked={withSecrets} onChange={(e) => setWithSecrets(e.currentTarget.checked)} /> Include secrets, encrypted with a password
        </label>
        {withSecrets && (
          <>
            <label for="export-password">Password for the secrets (at least 12 characters)</label>
            <input
              id="export-password"
              type="password"
              autocomplete="new-password"
              spellcheck={false}
              required
              minLength={12}
              value={exportPassword}
              onInput={(e) => setExportPassword(e.currentTarget.value)}
            />
          </>
        )}
        {exportError && (
          <p role="alert" class="error">
            {exportError}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Download export
        </button>
      </form>

      <form class="configuration-import" onSubmit={(e) => void importFile(e)}>
        <h3>Import</h3>
        <p class="hint">The whole file is checked first; then only what differs is written, in one transaction. Nothing is deleted.</p>
        <label for="import-file">Export file (JSON)</label>
        <input id="import-file" type="file" accept="application/json,.json" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        <label for="import-password">Password (only for a file with secrets)</label>
        <input id="import-password" type="password" autocomplete="off" spellcheck={false} value={importPassword} onInput={(e) => setImportPassword(e.currentTarget.value)} />
        {importError && (
          <p role="alert" class="error">
            {importError}
          </p>
        )}
        <button type="submit" disabled={busy || !file}>
          Import file
        </button>
      </form>

      {counts && (
        <div class="scroll">
          <table class="import-counts">
            <caption>What the import of {counts.file} did</caption>
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col">Created</th>
                <th scope="col">Updated</th>
                <th scope="col">Unchanged</th>
              </tr>
            </thead>
            <tbody>
              {counts.counts.map((c) => (
                <tr data-category={c.category}>
                  <th scope="row">{CATEGORY_LABELS[c.category]}</th>
                  <td>{c.created}</td>
                  <td>{c.updated}</td>
                  <td>{c.unchanged}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
