import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi, describeError, takeTokenFromUrl, tokenStore } from './api';
import { ConsoleAgentsDocument, ConsoleViewerDocument, type ConsoleViewerQuery } from './graphql/generated';
import type { AgentSummary } from './page-props';
import { agentPageOf, hashPath } from './hash-route';
import { AgentsPage } from './pages/Agents';
import { AgentPage } from './pages/agent/AgentPage';
import { BrainsPage } from './pages/Brains';
import { ConversationsPage } from './pages/Conversations';
import { DashboardPage } from './pages/Dashboard';
import { FirstRun } from './pages/FirstRun';
import { OperationsPage } from './pages/Operations';
import { ProfilesPage } from './pages/Profiles';
import { TokensPage } from './pages/Tokens';
// In this order: narrow.css overrides the layouts before it.
import './styles/base.css';
import './styles/records.css';
import './styles/dashboard.css';
import './styles/profiles.css';
import './styles/tokens.css';
import './styles/operations.css';
import './styles/conversations.css';
import './styles/agent.css';
import './styles/narrow.css';

const ROUTES = [
  { hash: '#/agents', label: 'Agents' },
  { hash: '#/brains', label: 'Brains' },
  { hash: '#/conversations', label: 'Conversations' },
  { hash: '#/dashboard', label: 'Dashboard' },
  { hash: '#/operations', label: 'Operations' },
  { hash: '#/profiles', label: 'Profiles' },
  { hash: '#/tokens', label: 'Tokens' },
] as const;
type Route = (typeof ROUTES)[number]['hash'];
// A page's records and parameters follow its route ('#/agents/hatchet', '#/brains?agent=hatchet': hash-route.ts).
const routeOf = (hash: string): Route => {
  const path = hashPath(hash);
  return ROUTES.find((r) => r.hash === path || path.startsWith(`${r.hash}/`))?.hash ?? '#/brains';
};

function SignIn({ onToken, error }: { onToken: (token: string) => void; error: string | null }) {
  const [value, setValue] = useState('');
  return (
    <main class="signin" aria-labelledby="signin-title">
      <h1 id="signin-title">Burrow console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) onToken(value.trim());
        }}
      >
        <label for="token">Operator token</label>
        <input id="token" type="password" autocomplete="off" spellcheck={false} value={value} onInput={(e) => setValue(e.currentTarget.value)} required />
        <p class="hint">Kept in this tab only (sessionStorage), never in a cookie.</p>
        <button type="submit">Sign in</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

function App() {
  const [token, setToken] = useState<string | null>(() => {
    const fromUrl = takeTokenFromUrl();
    if (fromUrl) tokenStore.set(fromUrl);
    return fromUrl ?? tokenStore.get();
  });
  const [viewer, setViewer] = useState<ConsoleViewerQuery['viewer'] | null>(null);
  const [agents, setAgents] = useState<AgentSummary[]>([]);
  const [agentsMore, setAgentsMore] = useState(false);
  // An install without agents: the first-run steps (pages/FirstRun.tsx), until the operator closes them.
  const [firstRun, setFirstRun] = useState(false);
  const [signInError, setSignInError] = useState<string | null>(null);
  const [route, setRoute] = useState<Route>(() => routeOf(location.hash));
  // The agent whose page is open under Agents (#/agents/<agentId>), or null for the list.
  const [agentPage, setAgentPage] = useState<string | null>(() => agentPageOf(location.hash));
  const [message, setMessage] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  const signOut = useCallback((reason: string | null = null) => {
    tokenStore.clear();
    setToken(null);
    setViewer(null);
    setSignInError(reason);
  }, []);
  const api = useMemo(() => (token ? createApi(token, () => signOut('The token was refused (UNAUTHENTICATED). Sign in again.')) : null), [token, signOut]);
  useEffect(() => () => api?.close(), [api]);

  const loadAgents = useCallback(async () => {
    if (!api) return;
    const data = await api.request(ConsoleAgentsDocument, {});
    setAgents(data.agents.edges.map((e) => e.node));
    setAgentsMore(data.agents.pageInfo.hasNextPage);
    if (data.agents.edges.length === 0) setFirstRun(true);
  }, [api]);

  useEffect(() => {
    if (!api) return;
    api
      .request(ConsoleViewerDocument, {})
      .then((data) => {
        setViewer(data.viewer);
        return loadAgents();
      })
      .catch((error) => signOut(describeError(error)));
  }, [api]);

  useEffect(() => {
    // A link with #token= opened in a tab that already shows the console changes only the hash.
    const onHash = () => {
      const fromUrl = takeTokenFromUrl();
      if (fromUrl) {
        tokenStore.set(fromUrl);
        setSignInError(null);
        setToken(fromUrl);
      }
      setRoute(routeOf(location.hash));
      setAgentPage(agentPageOf(location.hash));
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  // A new page moves focus to its heading, so a screen reader announces where the person is.
  useEffect(() => heading.current?.focus(), [route, agentPage, viewer]);

  const announce = useCallback((text: string) => {
    // Cleared first so the same message twice is announced twice.
    setMessage('');
    requestAnimationFrame(() => setMessage(text));
  }, []);

  if (!token || !api) return <SignIn onToken={(t) => (tokenStore.set(t), setSignInError(null), setToken(t))} error={signInError} />;
  if (!viewer) return <p class="loading">Signing in…</p>;

  const page = { api, agents, agentsMore, announce };
  const title = route === '#/agents' && agentPage ? `Agent ${agentPage}` : ROUTES.find((r) => r.hash === route)!.label;
  return (
    <>
      <a class="skip" href="#content" onClick={(e) => (e.preventDefault(), heading.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Burrow console</span>
        <nav aria-label="Console">
          {ROUTES.map((r) => (
            <a href={r.hash} aria-current={route === r.hash ? 'page' : undefined}>
              {r.label}
            </a>
          ))}
        </nav>
        <span class="who">
          {viewer.tokenName} ({viewer.principal.toLowerCase()})
        </span>
        <button type="button" class="secondary" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="content">
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {viewer.principal !== 'OPERATOR' && (
          <p class="warning">This token belongs to agent {viewer.agentId}: the console is for operator tokens, and most views will be refused.</p>
        )}
        {firstRun && viewer.principal === 'OPERATOR' && <FirstRun api={api} announce={announce} reloadAgents={loadAgents} onDone={() => setFirstRun(false)} />}
        {route === '#/agents' && (agentPage ? <AgentPage {...page} agentId={agentPage} /> : <AgentsPage {...page} reloadAgents={loadAgents} />)}
        {route === '#/brains' && <BrainsPage {...page} />}
        {route === '#/conversations' && <ConversationsPage {...page} />}
        {route === '#/dashboard' && <DashboardPage {...page} reloadAgents={loadAgents} />}
        {route === '#/operations' && <OperationsPage {...page} />}
        {route === '#/profiles' && <ProfilesPage {...page} />}
        {route === '#/tokens' && <TokensPage {...page} />}
      </main>
      <div id="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {message}
      </div>
    </>
  );
}

render(<App />, document.getElementById('app')!);
