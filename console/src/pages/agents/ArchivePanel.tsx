/**
 * Agent archives from the console (docs/agent-archive.md): download one agent as its archive file,
 * and import a file under an agent id. Both are plain HTTP (GET/POST /agents/{id}/archive), not
 * GraphQL, so they are fetched here with the signed-in token; the download becomes a file through
 * a Blob and an object URL, so the token never goes into a link. Refusals come as JSON
 * {error:{code,message}} and are said with humanError like every other error of the console.
 */
import { useState } from 'preact/hooks';
import { handled, tokenStore } from '../../api';
import { humanError } from '../../human-error';
import type { AgentSummary } from '../../page-props';
import { AGENT_ID_PATTERN } from '../tokens/CreateAgentForm';

interface ImportAnswer {
  agentId: string;
  fromAgentId: string;
  replaced: boolean;
  rows: number;
}

const archiveUrl = (agentId: string, query: string) => `/agents/${encodeURIComponent(agentId)}/archive${query}`;

/** The server's refusal in words; a body that is not the documented JSON (a proxy's page) by its status. */
async function refusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (body?.error?.message) return humanError({ code: body.error.code ?? null, message: body.error.message });
  return humanError({ message: `the server answered HTTP ${res.status} ${res.statusText}`.trim() });
}

const authorization = () => ({ authorization: `Bearer ${tokenStore.get() ?? ''}` });

export function ArchivePanel({ agents, announce, reloadAgents }: { agents: AgentSummary[]; announce: (m: string) => void; reloadAgents: () => Promise<void> }) {
  const [chosen, setChosen] = useState('');
  const [withEvents, setWithEvents] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [targetId, setTargetId] = useState('');
  const [replace, setReplace] = useState(false);
  const [busy, setBusy] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  // The first listed agent until the operator picks one; a pick that left the list (erased) falls back too.
  const agentId = agents.some((a) => a.agentId === chosen) ? chosen : (agents[0]?.agentId ?? '');

  async function download(e: Event) {
    e.preventDefault();
    if (!agentId || busy) return;
    // Kept as chosen, so an import that lists a newer agent first does not move the selection.
    setChosen(agentId);
    setBusy(true);
    setDownloadError(null);
    try {
      const res = await fetch(archiveUrl(agentId, withEvents ? '?includeEvents=true' : ''), { headers: authorization() });
      if (!res.ok) return setDownloadError(await refusal(res));
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `${agentId}.burrow-agent.gz`;
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has taken the file once the click is handled; the URL is only a handle to it.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      announce(`Archive of ${agentId} downloaded${withEvents ? ' with its event log' : ''}.`);
    } finally {
      setBusy(false);
    }
  }

  async function upload(e: Event) {
    e.preventDefault();
    const id = targetId.trim();
    if (!file || !id || busy) return;
    setBusy(true);
    setImportError(null);
    setAnswer(null);
    try {
      const res = await fetch(archiveUrl(id, replace ? '?replace=true' : ''), {
        method: 'POST',
        headers: { ...authorization(), 'content-type': 'application/gzip' },
        body: file,
      });
      if (!res.ok) return setImportError(await refusal(res));
      const got = (await res.json()) as ImportAnswer;
      setAnswer(got);
      announce(`Archive imported as ${got.agentId}.`);
      await reloadAgents();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="panel archive" aria-labelledby="archive-h">
      <h2 id="archive-h">Agent archive</h2>
      <p>One agent with everything it has, as one file, to move or copy it to this or another Burrow. Tokens and setting secrets do not travel.</p>
      <form class="archive-download" onSubmit={handled(download, setDownloadError)}>
        <h3>Download an archive</h3>
        <div class="row">
          <label for="archive-agent">Agent</label>
          <select id="archive-agent" value={agentId} onChange={(e) => setChosen(e.currentTarget.value)} disabled={agents.length === 0}>
            {agents.map((a) => (
              <option value={a.agentId}>
                {a.name} ({a.agentId})
              </option>
            ))}
          </select>
          <label>
            <input type="checkbox" checked={withEvents} onChange={(e) => setWithEvents(e.currentTarget.checked)} /> Include the event log
          </label>
          <button type="submit" disabled={!agentId || busy}>
            Download archive
          </button>
        </div>
        {downloadError && (
          <p role="alert" class="error">
            {downloadError}
          </p>
        )}
      </form>
      <form class="archive-import" onSubmit={handled(upload, setImportError)}>
        <h3>Import an archive</h3>
        <div class="row">
          <label for="archive-file">Archive file</label>
          <input id="archive-file" type="file" accept=".gz,application/gzip" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          <label for="archive-target">Import under the id</label>
          <input
            id="archive-target"
            value={targetId}
            onInput={(e) => setTargetId(e.currentTarget.value)}
            required
            pattern={AGENT_ID_PATTERN}
            maxLength={63}
            spellcheck={false}
            autocomplete="off"
            aria-describedby="archive-target-hint"
          />
          <label>
            <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} /> Replace an existing agent
          </label>
          <button type="submit" disabled={busy}>
            Import
          </button>
        </div>
        <p id="archive-target-hint" class="hint">
          The agent id the archive is imported as: its own or a new one. An existing agent under it is refused unless "Replace" is ticked; a replace removes all of that agent's
          data (its tokens stay).
        </p>
        {importError && (
          <p role="alert" class="error">
            {importError}
          </p>
        )}
        {answer && (
          <p role="status" class="archive-answer">
            Imported {answer.fromAgentId} as {answer.agentId}: {answer.rows} rows{answer.replaced ? ', replacing the agent that was there' : ''}.
          </p>
        )}
      </form>
    </section>
  );
}
