/**
 * Connection URLs that name several hosts, as libpq writes them:
 * `postgresql://user@h1:5432,h2:5433/db?target_session_attrs=read-write`. The WHATWG URL parser
 * (and so node-postgres) takes one host, so the host list is split off here and the rest of the
 * URL is parsed with the first host in its place; db/primary-router.ts then connects to whichever
 * host is the read-write primary.
 */

export interface HostPort {
  host: string;
  port: number;
}

export interface SplitUrl {
  /** The hosts in the order given; one for an ordinary URL. */
  hosts: HostPort[];
  /** The same URL with the first host only: what URL and node-postgres can parse. */
  firstHostUrl: string;
}

const DEFAULT_PORT = 5432;
const AUTHORITY = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i;

/** `host`, `host:port`, `[v6]` or `[v6]:port`; null when malformed. */
function parseHost(entry: string): HostPort | null {
  const bracketed = /^(\[[0-9a-f:.]+\])(?::(\d+))?$/i.exec(entry);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(entry);
  const match = bracketed ?? plain;
  if (!match) return null;
  const port = match[2] === undefined ? DEFAULT_PORT : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: bracketed ? match[1].slice(1, -1) : decodeURIComponent(match[1]), port };
}

/** Splits the host list off a postgres:// URL; null when it is not one or a host is malformed. */
export function splitHosts(raw: string): SplitUrl | null {
  const match = AUTHORITY.exec(raw);
  if (!match) return null;
  const [, scheme, userinfo = '', hostList, rest] = match;
  // `postgresql:///db` (no host) is libpq's local socket: left to the single-host path.
  if (!hostList.includes(',')) return { hosts: [], firstHostUrl: raw };
  const entries = hostList.split(',');
  const hosts = entries.map(parseHost);
  if (hosts.some((host) => host === null)) return null;
  return { hosts: hosts as HostPort[], firstHostUrl: `${scheme}${userinfo}${entries[0]}${rest}` };
}

/** `h1:5432,h2:5433`, for banners and errors (never a password). */
export function describeHosts(hosts: HostPort[]): string {
  return hosts.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
}

/**
 * libpq's target_session_attrs values that Burrow accepts: it writes, so it always needs the
 * read-write server. `any`, `read-only`, `standby` and `prefer-standby` would send its writes to a
 * standby: refused with a message.
 */
export const WRITABLE_SESSION_ATTRS = ['read-write', 'primary'];
