/** The per-item results of a bulk deletion, with Reload conflicts when a memory changed since it was read. */
import type { DeletionRow } from './memory';

export function DeletionResults({ results, onReloadConflicts }: { results: DeletionRow[]; onReloadConflicts: () => void }) {
  return (
    <section aria-labelledby="results-h" class="panel">
      <h2 id="results-h">Deletion results</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Memory</th>
              <th scope="col">Result</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr data-status={r.status}>
                <td>{r.title}</td>
                <td>
                  <span class={`status s-${r.status}`}>{r.status}</span>
                </td>
                <td>{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {results.some((r) => r.status === 'REVISION_CONFLICT') && (
        <button type="button" onClick={onReloadConflicts}>
          Reload conflicts
        </button>
      )}
    </section>
  );
}
