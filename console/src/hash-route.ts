/**
 * The console's address is its hash: a page (`#/brains`), optionally a record under it
 * (`#/agents/hatchet`: the page of one agent, under the Agents entry) and parameters after `?`
 * (`#/brains?agent=hatchet`: the Brains page with that owner chosen). Pages read their
 * parameters here, once, when they open.
 */

/** `#/agents/hatchet?x=1` → `#/agents/hatchet` */
export const hashPath = (hash: string) => hash.split('?')[0] ?? '';

/** One parameter after the `?` of the hash, or null. */
export const hashParam = (name: string, hash = location.hash): string | null => new URLSearchParams(hash.split('?')[1] ?? '').get(name);

const AGENT_PAGE = /^#\/agents\/([^/?]+)$/;

/** The agent whose page the hash names (`#/agents/<agentId>`), or null. */
export function agentPageOf(hash: string): string | null {
  const match = AGENT_PAGE.exec(hashPath(hash));
  return match ? decodeURIComponent(match[1]!) : null;
}

export const agentPageHref = (agentId: string) => `#/agents/${encodeURIComponent(agentId)}`;

/** A page's address with parameters: hrefWith('#/brains', { agent: 'hatchet' }) → `#/brains?agent=hatchet`. */
export const hrefWith = (page: string, params: Record<string, string>) => `${page}?${new URLSearchParams(params).toString()}`;
