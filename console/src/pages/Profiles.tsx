/**
 * Profiles: the six documents of an agent, edited with revision checks (a conflict shows the
 * current content beside the draft), and the revision history with a line diff between any two.
 */
import { useEffect, useState } from 'preact/hooks';
import { hashParam } from '../hash-route';
import { describeError, handled } from '../api';
import { diffLines } from '../diff';
import { humanError } from '../human-error';
import {
  ConsoleProfileDocument,
  ConsoleProfileDocumentDocument,
  ConsoleUpdateProfileDocumentDocument,
  type ConsoleProfileDocumentQuery,
  type ProfileKind,
} from '../graphql/generated';
import type { PageProps } from '../page-props';

const KINDS: ProfileKind[] = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'];
type Doc = NonNullable<ConsoleProfileDocumentQuery['profileDocument']>;

export function ProfilesPage({ api, agents, announce }: PageProps) {
  // Opened from an agent's page (#/profiles?agent=…&kind=…): that agent and document are chosen.
  const [agentId, setAgentId] = useState(() => hashParam('agent') ?? '');
  const [summary, setSummary] = useState<Record<string, number>>({});
  const [kind, setKind] = useState<ProfileKind>(() => KINDS.find((k) => k === hashParam('kind')) ?? 'SOUL');
  const [doc, setDoc] = useState<Doc | null>(null);
  const [draft, setDraft] = useState('');
  const [expected, setExpected] = useState(0);
  const [conflict, setConflict] = useState<{ currentRevision: number; currentContent: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);

  async function loadSummary(id: string) {
    const data = await api.request(ConsoleProfileDocument, { agentId: id });
    setSummary(Object.fromEntries((data.agent?.profile ?? []).map((p) => [p.kind, p.revision])));
  }
  async function loadDoc(id: string, k: ProfileKind, keepDraft = false) {
    setError(null);
    try {
      const data = await api.request(ConsoleProfileDocumentDocument, { agentId: id, kind: k });
      const d = data.profileDocument;
      setDoc(d);
      if (!d) return;
      if (!keepDraft) setDraft(d.content);
      setExpected(d.revision);
      const revs = d.revisions.edges.map((edge) => edge.node).map((r) => r.revision);
      setTo(revs[0] ?? null);
      setFrom(revs[1] ?? revs[0] ?? null);
    } catch (e) {
      setError(describeError(e));
    }
  }
  useEffect(() => {
    setDoc(null);
    setConflict(null);
    if (agentId) void loadSummary(agentId).then(() => loadDoc(agentId, kind));
  }, [agentId]);

  async function save(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const data = await api.request(ConsoleUpdateProfileDocumentDocument, { input: { agentId, kind, content: draft, expectedRevision: expected } });
      const r = data.updateProfileDocument;
      if (r.__typename === 'RevisionConflict') {
        setConflict({ currentRevision: r.currentRevision, currentContent: r.currentContent });
        return announce(`Not saved: ${kind} changed to revision ${r.currentRevision} since you read it.`);
      }
      if (r.__typename !== 'UpdateProfileDocumentSuccess') return setError(humanError(r));
      setConflict(null);
      await loadDoc(agentId, kind);
      await loadSummary(agentId);
      // Announced once the page holds what it will send next: a save that follows this announcement
      // is checked against the revision just saved, never against a later one read meanwhile.
      announce(`Saved ${kind} as revision ${r.document.revision}.`);
    } catch (err) {
      setError(describeError(err));
    }
  }

  const revision = (n: number | null) => doc?.revisions.edges.map((edge) => edge.node).find((r) => r.revision === n) ?? null;
  const diff = from !== null && to !== null && revision(from) && revision(to) ? diffLines(revision(from)!.content, revision(to)!.content) : [];

  return (
    <div class="profiles">
      <div class="panel">
        <label for="profile-agent">Agent</label>
        <select id="profile-agent" value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
          <option value="">Choose an agent…</option>
          {agents.map((a) => (
            <option value={a.agentId}>
              {a.name} ({a.agentId})
            </option>
          ))}
        </select>
      </div>
      {agentId && (
        <>
          <nav class="panel kinds" aria-label="Profile documents">
            {KINDS.map((k) => (
              <button
                type="button"
                class="secondary"
                aria-pressed={k === kind}
                onClick={() => {
                  setKind(k);
                  setConflict(null);
                  void loadDoc(agentId, k);
                }}
              >
                {k} <span class="meta">r{summary[k] ?? '…'}</span>
              </button>
            ))}
          </nav>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          {doc && (
            <section class="panel" aria-labelledby="doc-h">
              <h2 id="doc-h">
                {kind} <span class="meta">revision {doc.revision}</span>
              </h2>
              <p class="meta">
                {doc.reference} · last written by {doc.updatedBy.kind.toLowerCase()} {doc.updatedBy.principalId} at {doc.updatedAt}
              </p>
              {conflict && (
                <div role="alert" class="conflict">
                  <p>
                    Another writer saved revision {conflict.currentRevision} of {kind} after you read revision {expected}. Nothing was saved.
                  </p>
                  <button
                    type="button"
                    onClick={handled(async () => {
                      await loadDoc(agentId, kind, true);
                      setConflict(null);
                      announce(`Reloaded ${kind}; your draft is kept. Save again to replace revision ${conflict.currentRevision} deliberately.`);
                    }, setError)}
                  >
                    Reload document
                  </button>
                </div>
              )}
              <div class={conflict ? 'compare' : undefined}>
                <form onSubmit={handled(save, setError)} aria-label={`Edit ${kind}`}>
                  <label for="profile-content">{conflict ? 'Your draft' : `Content of ${kind}`} (Markdown, at most 48,000 characters)</label>
                  <textarea id="profile-content" rows={14} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} maxLength={48000} />
                  <button type="submit">Save document</button>
                </form>
                {conflict && (
                  <section aria-labelledby="pnewer-h" class="newer">
                    <h3 id="pnewer-h">Current revision {conflict.currentRevision}</h3>
                    <pre class="pre">{conflict.currentContent ?? ''}</pre>
                  </section>
                )}
              </div>

              <h3>Revision history</h3>
              <ol class="revisions">
                {doc.revisions.edges
                  .map((edge) => edge.node)
                  .map((r) => (
                    <li>
                      r{r.revision} · {r.createdAt} · {r.actor.kind.toLowerCase()} {r.actor.principalId} · {r.reason}
                    </li>
                  ))}
              </ol>
              {doc.revisions.edges.map((edge) => edge.node).length > 1 && (
                <>
                  <div class="row">
                    <label for="diff-from">From revision</label>
                    <select id="diff-from" value={String(from)} onChange={(e) => setFrom(Number(e.currentTarget.value))}>
                      {doc.revisions.edges
                        .map((edge) => edge.node)
                        .map((r) => (
                          <option value={String(r.revision)}>{r.revision}</option>
                        ))}
                    </select>
                    <label for="diff-to">To revision</label>
                    <select id="diff-to" value={String(to)} onChange={(e) => setTo(Number(e.currentTarget.value))}>
                      {doc.revisions.edges
                        .map((edge) => edge.node)
                        .map((r) => (
                          <option value={String(r.revision)}>{r.revision}</option>
                        ))}
                    </select>
                  </div>
                  <div class="diff" role="region" aria-label={`Changes from revision ${from} to ${to}`}>
                    {diff.map((line) => (line.kind === 'added' ? <ins>+ {line.text}</ins> : line.kind === 'removed' ? <del>- {line.text}</del> : <span> {line.text}</span>))}
                  </div>
                </>
              )}
            </section>
          )}
        </>
      )}
    </div>
  );
}
