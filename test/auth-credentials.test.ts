/**
 * The credential forms auth/authenticate.ts accepts, transport by transport: what reaches the
 * token lookup (the secret and the runtime scope) for each way a caller may present a token.
 */
import { describe, expect, it } from 'vitest';
import { authenticate, connectionParamCredentials, headerCredentials, nodeHeaderCredentials, stdioCredentials, type Credentials } from '../src/auth/authenticate.js';
import type { RuntimeScope } from '../src/auth/viewer.js';

/** What authenticate() asks the lookup for: the secret and the scope. */
async function lookedUp(credentials: Credentials): Promise<{ secret: string | null | undefined; scope: RuntimeScope }> {
  let seen: { secret: string | null | undefined; scope: RuntimeScope } | null = null;
  await authenticate(
    {
      lookup: (secret, scope) => {
        seen = { secret, scope };
        return Promise.resolve(null);
      },
    },
    credentials,
  );
  return seen!;
}
const secretOf = async (credentials: Credentials) => (await lookedUp(credentials)).secret;
const noScope: RuntimeScope = { scope: null, sessionId: null, conversationId: null };

describe('credentials', () => {
  it('an HTTP header: only `Bearer <token>`, in any case, trimmed; a bare token is no secret', async () => {
    const headers = (authorization?: string) => headerCredentials((name) => (name === 'authorization' ? authorization : null));
    expect(await secretOf(headers('Bearer brw_a'))).toBe('brw_a');
    expect(await secretOf(headers('bearer  brw_a '))).toBe('brw_a');
    expect(await secretOf(headers('BEARER brw_a'))).toBe('brw_a');
    expect(await secretOf(headers('brw_a'))).toBeNull();
    expect(await secretOf(headers(undefined))).toBeNull();
  });

  it('node:http headers: the scope headers, blank ones absent', async () => {
    const seen = await lookedUp(
      nodeHeaderCredentials({ authorization: 'Bearer brw_n', 'burrow-continuity-scope': ' proj ', 'burrow-session': 's-1', 'burrow-conversation': '   ' }),
    );
    expect(seen).toEqual({ secret: 'brw_n', scope: { scope: 'proj', sessionId: 's-1', conversationId: null } });
    expect(await lookedUp(nodeHeaderCredentials({}))).toEqual({ secret: null, scope: noScope });
  });

  it('graphql-ws params: authorization, Authorization or token, with or without Bearer; scope params in any case', async () => {
    expect(await secretOf(connectionParamCredentials({ authorization: 'Bearer brw_w' }))).toBe('brw_w');
    expect(await secretOf(connectionParamCredentials({ Authorization: 'bearer brw_w' }))).toBe('brw_w');
    expect(await secretOf(connectionParamCredentials({ token: ' brw_w ' }))).toBe('brw_w');
    expect(await secretOf(connectionParamCredentials({ authorization: 'brw_first', token: 'brw_second' }))).toBe('brw_first');
    expect(await secretOf(connectionParamCredentials({ AUTHORIZATION: 'Bearer brw_w' }))).toBe('');
    expect(await secretOf(connectionParamCredentials({}))).toBe('');
    const seen = await lookedUp(connectionParamCredentials({ token: 'brw_w', 'Burrow-Continuity-Scope': 'proj', 'burrow-session': 7, 'BURROW-CONVERSATION': '' }));
    expect(seen.scope).toEqual({ scope: 'proj', sessionId: '7', conversationId: null });
  });

  it('the stdio identity: the token as it is, the scope from the environment', async () => {
    const identity = { token: 'brw_s', scope: 'proj', sessionId: null, conversationId: 'c-1' };
    expect(await lookedUp(stdioCredentials(identity))).toEqual({ secret: 'brw_s', scope: { scope: 'proj', sessionId: null, conversationId: 'c-1' } });
    expect(await secretOf(stdioCredentials({ ...identity, token: 'Bearer brw_s' }))).toBe('Bearer brw_s');
  });
});
