/**
 * BURROW_POSTGRES_URL naming several hosts (libpq's `h1:p1,h2:p2`): the hosts in order with their
 * ports (5432 when left out, IPv6 in brackets), the rest of the URL kept, the banner's text without
 * the password, and target_session_attrs other than read-write refused (Burrow writes).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { problems } from './support/config-problems.js';
import { ConfigError } from '../src/config.env.js';

const external = (url: string) => loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: url }).database;

describe('BURROW_POSTGRES_URL with several hosts', () => {
  it('keeps the hosts in order, defaults a missing port to 5432, and parses the rest with the first host', () => {
    expect(external('postgresql://svc:s3cret@db1:6431,db2,[::1]:6433/burrow?target_session_attrs=read-write&application_name=x')).toMatchObject({
      lifecycle: 'external',
      hosts: [
        { host: 'db1', port: 6431 },
        { host: 'db2', port: 5432 },
        { host: '::1', port: 6433 },
      ],
      connectionString: 'postgresql://svc:s3cret@db1:6431/burrow?application_name=x',
      display: 'db1:6431,db2:5432,[::1]:6433/burrow',
    });
  });

  it('a single host has no host list: the URL is used as written', () => {
    const single = external('postgres://svc@db1:6431/burrow');
    expect(single).toMatchObject({ connectionString: 'postgres://svc@db1:6431/burrow', display: 'db1:6431/burrow' });
    expect(single).not.toHaveProperty('hosts');
  });

  it('accepts read-write and primary, and refuses every target_session_attrs that could reach a standby', () => {
    expect(external('postgres://db1,db2/burrow?target_session_attrs=primary')).toMatchObject({ connectionString: 'postgres://db1/burrow' });
    for (const attrs of ['any', 'read-only', 'standby', 'prefer-standby']) {
      expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: `postgres://db1,db2/burrow?target_session_attrs=${attrs}` })).toEqual([
        `BURROW_POSTGRES_URL has target_session_attrs=${attrs}, but Burrow writes and always connects to the read-write server: use read-write or leave it out`,
      ]);
    }
  });

  it('refuses a malformed host list, naming the form', () => {
    for (const url of ['postgres://db1:x,db2/burrow', 'postgres://db1,,db2/burrow', 'postgres://db1:70000,db2/burrow']) {
      expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: url })).toEqual([
        'BURROW_POSTGRES_URL is not a postgres:// URL (several hosts are written host1:port1,host2:port2)',
      ]);
    }
  });
});

describe('BURROW_POSTGRES_DIRECT_URL with several hosts', () => {
  const direct = (url: string) =>
    (
      loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'postgres://svc@pgb1:6432,pgb2:6433/burrow', BURROW_POSTGRES_DIRECT_URL: url }).database as {
        topology: { direct: unknown };
      }
    ).topology.direct;

  it('keeps the hosts in order and parses the rest with the first host, without target_session_attrs', () => {
    expect(direct('postgresql://svc:s3cret@db1:5433,db2,[::1]:5435/burrow?target_session_attrs=read-write&application_name=x')).toEqual({
      connectionString: 'postgresql://svc:s3cret@db1:5433/burrow?application_name=x',
      display: 'db1:5433,db2:5432,[::1]:5435/burrow',
      hosts: [
        { host: 'db1', port: 5433 },
        { host: 'db2', port: 5432 },
        { host: '::1', port: 5435 },
      ],
    });
  });

  it('a single host has no host list, and a single-host target_session_attrs=primary is accepted and dropped', () => {
    expect(direct('postgres://svc@db1:5433/burrow?target_session_attrs=primary')).toEqual({ connectionString: 'postgres://svc@db1:5433/burrow', display: 'db1:5433/burrow' });
  });

  it('refuses a target_session_attrs that could reach a standby and a malformed host list, naming the variable', () => {
    const env = { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'postgres://db1,db2/burrow' };
    expect(problems({ ...env, BURROW_POSTGRES_DIRECT_URL: 'postgres://db1,db2/burrow?target_session_attrs=prefer-standby' })).toEqual([
      'BURROW_POSTGRES_DIRECT_URL has target_session_attrs=prefer-standby, but Burrow writes and always connects to the read-write server: use read-write or leave it out',
    ]);
    expect(problems({ ...env, BURROW_POSTGRES_DIRECT_URL: 'postgres://svc:pw@db1:x,db2/burrow' })).toEqual([
      'BURROW_POSTGRES_DIRECT_URL has "postgres://svc:***@db1:x,db2/burrow", which is not a postgres:// URL',
    ]);
  });
});
