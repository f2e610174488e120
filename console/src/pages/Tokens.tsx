/**
 * Tokens: every bearer token (apiTokens, revoked and expired ones included), creating one
 * (operator or bound to an agent, optional lifetime) with its secret shown once, and revoking
 * one after a confirmation. Revocation is immediate on every instance (the server ends the
 * token's sockets and streams too).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api';
import { humanError } from '../human-error';
import { ConsoleApiTokensDocument, ConsoleRevokeApiTokenDocument, type ConsoleApiTokenFragment } from '../graphql/generated';
import type { PageProps } from '../page-props';
import { ConfirmDialog } from './tokens/ConfirmDialog';
import { CreateTokenForm, type CreatedToken } from './tokens/CreateTokenForm';
import { SecretOnce } from './tokens/SecretOnce';

const when = (iso: string | null, none: string) => (iso ? iso.replace('T', ' ').slice(0, 19) : none);

function stateOf(t: ConsoleApiTokenFragment) {
  if (t.revokedAt) return `revoked ${when(t.revokedAt, '')}`;
  return t.active ? 'active' : 'expired';
}

export function TokensPage({ api, agents, announce }: PageProps) {
  const [tokens, setTokens] = useState<ConsoleApiTokenFragment[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<ConsoleApiTokenFragment | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listHeading = useRef<HTMLHeadingElement>(null);

  const load = async () => {
    try {
      const data = await api.request(ConsoleApiTokensDocument, {});
      setTokens(data.apiTokens.edges.map((e) => e.node));
      setMore(data.apiTokens.pageInfo.hasNextPage);
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
  };
  useEffect(() => void load(), [api]);

  const revoke = async (token: ConsoleApiTokenFragment) => {
    setBusy(true);
    try {
      const r = (await api.request(ConsoleRevokeApiTokenDocument, { tokenId: token.tokenId })).revokeApiToken;
      if (r.__typename !== 'RevokeApiTokenSuccess') return setRevokeError(humanError(r));
      setRevoking(null);
      setRevokeError(null);
      announce(`Token ${token.name} revoked: it is refused from now on.`);
      await load();
      // Its Revoke button is gone: focus goes to the list rather than to nowhere.
      listHeading.current?.focus();
    } catch (e) {
      setRevokeError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="tokens">
      <section class="panel" aria-labelledby="new-token-h">
        <h2 id="new-token-h">New token</h2>
        <CreateTokenForm
          api={api}
          idPrefix="tokens"
          agents={agents}
          onCreated={(c) => {
            setCreated(c);
            announce(`Token ${c.token.name} created: copy its secret now.`);
            void load();
          }}
        />
        {created && <SecretOnce idPrefix="tokens" secret={created.secret} tokenName={created.token.name} onDone={() => setCreated(null)} />}
      </section>

      <section class="panel" aria-labelledby="token-list-h">
        <h2 id="token-list-h" tabIndex={-1} ref={listHeading}>
          All tokens
        </h2>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {tokens && (
          <div class="scroll">
            <table>
              <caption class="visually-hidden">Every token, newest first, with its state</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Acts as</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr data-token={t.tokenId}>
                    <th scope="row">{t.name}</th>
                    <td>{t.kind === 'OPERATOR' ? 'operator (every agent)' : `agent ${t.agentId}`}</td>
                    <td>{when(t.createdAt, '')}</td>
                    <td>{when(t.expiresAt, 'never')}</td>
                    <td>{when(t.lastUsedAt, 'never')}</td>
                    <td data-state>{stateOf(t)}</td>
                    <td>
                      {!t.revokedAt && (
                        <button type="button" class="danger" aria-label={`Revoke ${t.name}`} onClick={() => (setRevokeError(null), setRevoking(t))}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {more && <p class="warning">Showing the newest 200 tokens only.</p>}
      </section>

      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          confirmLabel="Revoke token"
          busy={busy}
          error={revokeError}
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        >
          <p>
            {revoking.kind === 'OPERATOR' ? 'This operator token' : `This token of agent ${revoking.agentId}`} is refused from now on, and its open live streams end. This cannot be
            undone: a runtime that uses it needs a new token.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
