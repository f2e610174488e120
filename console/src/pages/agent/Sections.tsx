/** The agent page's smaller sections: profile, Brains, conversation sessions, continuity runs, Tiddle status. */
import { hrefWith } from '../../hash-route';
import { when } from '../brains/when';
import { Scroll } from './Scroll';
import { TiddleStatusView } from './TiddleStatus';
import { RUN_STATES, stateName, type AgentData } from './types';

/** The first line of a document, shortened: enough to recognise it. */
const preview = (content: string) => {
  const line = content.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

export function ProfileSection({ agent }: { agent: AgentData }) {
  return (
    <section class="panel" aria-labelledby="agent-profile-h">
      <h2 id="agent-profile-h">Profile</h2>
      <p class="hint">Open a document to read its revisions or edit it on the Profiles page.</p>
      <Scroll label="Table of profile documents">
        <table>
          <caption class="visually-hidden">The six profile documents of {agent.agentId}</caption>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Revision</th>
              <th scope="col">Updated</th>
              <th scope="col">Begins with</th>
            </tr>
          </thead>
          <tbody>
            {agent.profile.map((d) => (
              <tr data-kind={d.kind}>
                <th scope="row">
                  <a href={hrefWith('#/profiles', { agent: agent.agentId, kind: d.kind })}>{d.kind}</a>
                </th>
                <td>{d.revision}</td>
                <td>
                  <time dateTime={d.updatedAt}>{when(d.updatedAt)}</time>
                </td>
                <td>{d.content ? preview(d.content) : <span class="meta">empty</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </section>
  );
}

export function BrainsSection({ agent }: { agent: AgentData }) {
  const { totalCount, edges } = agent.brainMemories;
  return (
    <section class="panel" aria-labelledby="agent-brains-h">
      <h2 id="agent-brains-h">Brains</h2>
      {edges.length === 0 ? (
        <p>No live memory.</p>
      ) : (
        <>
          <p>{edges.length < totalCount ? `The newest ${edges.length} of ${totalCount} live memories:` : `All ${totalCount} live memories, newest first:`}</p>
          <ol class="agent-memories">
            {edges.map(({ node }) => (
              <li data-memory={node.memoryId}>
                {node.title}{' '}
                <span class="meta">
                  revision {node.revision}, created <time dateTime={node.createdAt}>{when(node.createdAt)}</time>
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
      <p>
        <a href={hrefWith('#/brains', { agent: agent.agentId })}>Search, write and remove {agent.agentId}’s memories on the Brains page</a>
      </p>
    </section>
  );
}

export function ConversationsSection({ agent }: { agent: AgentData }) {
  const { edges, pageInfo } = agent.conversationSessions;
  return (
    <section class="panel" aria-labelledby="agent-conversations-h">
      <h2 id="agent-conversations-h">Conversation sessions</h2>
      {edges.length === 0 ? (
        <p>No conversation yet.</p>
      ) : (
        <Scroll label="Table of conversation sessions">
          <table>
            <caption class="visually-hidden">Conversation sessions of {agent.agentId}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Scope</th>
                <th scope="col">Originals</th>
                <th scope="col">Active / archived</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {edges.map(({ node: s }) => (
                <tr data-session={s.sessionId}>
                  <th scope="row">
                    {s.sessionId}
                    {s.archived && <span class="label">archived</span>}
                  </th>
                  <td>{s.project ?? 'none'}</td>
                  <td>{s.originalCount}</td>
                  <td>
                    {s.activeCount} / {s.archivedCount}
                  </td>
                  <td>
                    <time dateTime={s.lastActivityAt}>{when(s.lastActivityAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {pageInfo.hasNextPage && (
        <p class="hint">
          The newest {edges.length} of {agent.counts.conversationSessions} sessions.
        </p>
      )}
      <p>
        <a href={hrefWith('#/conversations', { agent: agent.agentId })}>Read {agent.agentId}’s conversations on the Conversations page</a>
      </p>
    </section>
  );
}

export function RunsSection({ agent }: { agent: AgentData }) {
  const { edges, pageInfo } = agent.continuityRuns;
  const total = agent.counts.runsByState.reduce((sum, r) => sum + r.count, 0);
  return (
    <section class="panel" aria-labelledby="agent-runs-h">
      <h2 id="agent-runs-h">Continuity runs</h2>
      <ul class="states">
        {RUN_STATES.map((s) => (
          <li data-state={s}>
            {stateName(s)}: <strong>{agent.counts.runsByState.find((r) => r.state === s)?.count ?? 0}</strong>
          </li>
        ))}
      </ul>
      {edges.length === 0 ? (
        <p>No continuity run yet.</p>
      ) : (
        <Scroll label="Table of continuity runs">
          <table>
            <caption class="visually-hidden">Continuity runs of {agent.agentId}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">State</th>
                <th scope="col">Scope</th>
                <th scope="col">Generation</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {edges.map(({ node: r }) => (
                <tr data-run={r.runId}>
                  <th scope="row">{r.runId}</th>
                  <td>{stateName(r.state)}</td>
                  <td>{r.project ?? 'none'}</td>
                  <td>{r.generation}</td>
                  <td>
                    <time dateTime={r.updatedAt}>{when(r.updatedAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {pageInfo.hasNextPage && (
        <p class="hint">
          The newest {edges.length} of {total} runs; recovery queues and interruption manifests are on the Dashboard.
        </p>
      )}
    </section>
  );
}

export function TiddleSection({ agent }: { agent: AgentData }) {
  return (
    <section class="panel" aria-labelledby="agent-tiddle-h">
      <h2 id="agent-tiddle-h">Tiddle status</h2>
      <TiddleStatusView status={agent.tiddleStatus} caption={`Tiddle status of ${agent.agentId} per scope`} />
    </section>
  );
}
