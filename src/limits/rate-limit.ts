/**
 * Per-token rate limiting: a token bucket per bearer token, in this instance's memory. Each
 * request (HTTP or SSE) and each WebSocket operation takes one unit; a bucket holds `burst`
 * units and refills at `perSecond`. Several instances each keep their own buckets, so behind a
 * load balancer a token gets up to the limit per instance (documented in docs/security.md).
 * Time comes from the server's clock, so refills are testable without sleeping.
 */
import { createGraphQLError } from 'graphql-yoga';
import type { Clock } from '../lib/clock.js';

export interface RateLimitConfig {
  /** Units added per second (0: rate limiting off). */
  perSecond: number;
  /** The most units a bucket holds: how large a burst may be. */
  burst: number;
}

interface Bucket {
  units: number;
  at: number;
}

/** Buckets are dropped once full again; this bounds how many idle ones are kept between sweeps. */
const SWEEP_AT = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly config: RateLimitConfig,
  ) {}

  /** Takes one unit for `key`; null when granted, else the whole seconds until one is available. */
  take(key: string): number | null {
    const { perSecond, burst } = this.config;
    if (perSecond <= 0) return null;
    const now = this.clock.now().getTime();
    const bucket = this.buckets.get(key) ?? { units: burst, at: now };
    bucket.units = Math.min(burst, bucket.units + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    if (bucket.units >= 1) {
      bucket.units -= 1;
      this.buckets.set(key, bucket);
      if (this.buckets.size > SWEEP_AT) this.sweep(now);
      return null;
    }
    this.buckets.set(key, bucket);
    return Math.max(1, Math.ceil((1 - bucket.units) / perSecond));
  }

  private sweep(now: number) {
    const { perSecond, burst } = this.config;
    for (const [key, bucket] of this.buckets) if (bucket.units + ((now - bucket.at) / 1000) * perSecond >= burst) this.buckets.delete(key);
  }
}

/** The typed refusal: RATE_LIMITED, HTTP 429 with Retry-After (seconds). */
export const rateLimitedError = (retryAfterSeconds: number) =>
  createGraphQLError(`too many requests for this token; retry in ${retryAfterSeconds} s`, {
    extensions: { code: 'RATE_LIMITED', retryAfterSeconds, http: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } } },
  });
