/** What the legacy import recorded about a memory it brought in (shown under the editor). */
import type { Memory } from './memory';

export function LegacyDetails({ memory }: { memory: Memory }) {
  const m = memory.legacyMigration!;
  return (
    <details class="legacy">
      <summary>Legacy migration details</summary>
      <dl>
        <dt>Source</dt>
        <dd>{m.source}</dd>
        <dt>Legacy id</dt>
        <dd>{m.legacyId}</dd>
        <dt>Legacy scope</dt>
        <dd>{m.legacyScope}</dd>
        <dt>Legacy owner</dt>
        <dd>{m.legacyOwnerAgentId ?? 'global (owned by hatchet after import)'}</dd>
        <dt>Legacy status</dt>
        <dd>{m.legacyStatus}</dd>
        <dt>Operator corrected / deleted</dt>
        <dd>
          {m.operatorCorrected ? 'yes' : 'no'} / {m.operatorDeleted ? 'yes' : 'no'}
        </dd>
        <dt>Imported</dt>
        <dd>
          {m.importedAt} by {m.importedBy.kind.toLowerCase()} {m.importedBy.principalId}
        </dd>
        <dt>Evidence, snapshots</dt>
        <dd>
          {m.evidenceCount} evidence, {m.snapshotCount} revision snapshots
        </dd>
        <dt>Cut to Brains limits</dt>
        <dd>{m.truncated ? 'yes (the legacy tables keep the original)' : 'no'}</dd>
      </dl>
      {/* It scrolls (.json has a max height): focusable, so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <pre class="json" tabIndex={0} aria-label="Preserved legacy details (JSON)">
        {JSON.stringify(m.details, null, 2)}
      </pre>
    </details>
  );
}
