import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';

describe('configuration', () => {
  it('when nothing is set, then the embedded defaults apply', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_URL: undefined,
      SVC_DATA_DIR: '.svc',
      SVC_EMBEDDED_PG_PORT: 54329,
      SVC_ENVIRONMENT: 'sandbox',
      SVC_ADMIN_TOKEN: undefined,
      SVC_BODY_LIMIT_BYTES: 1048576,
      SVC_SHUTDOWN_TIMEOUT_MS: 10000,
      SVC_DB_POOL_MAX: 10,
      SVC_DB_ACQUIRE_TIMEOUT_MS: 5000,
      SVC_DB_STATEMENT_TIMEOUT_MS: 30000,
      SVC_RATE_LIMIT_PER_SECOND: 100,
      SVC_RATE_LIMIT_BURST: 1000,
      SVC_RATE_LIMIT_LEASE: 20,
      SVC_AUTH_FAILURES_PER_SECOND: 10,
      SVC_AUTH_FAILURE_BURST: 100,
      SVC_AUTH_REFUSAL_HOLD_MS: 1_000,
      SVC_AUTH_MAX_HELD_REFUSALS: 1_000,
      SVC_TRUST_PROXY: false,
      SVC_WEBHOOK_RATE_LIMIT_PER_SECOND: 20,
      SVC_WEBHOOK_RATE_LIMIT_BURST: 200,
      SVC_RESPONSE_VALIDATION: false,
      LOG_LEVEL: 'info',
      SVC_WORKERS: '1',
      OTEL_SERVICE_NAME: 'svc',
    });
  });

  it('when values are bad, then every bad variable is named', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '70000',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        SVC_BODY_LIMIT_BYTES: '0',
        SVC_RATE_LIMIT_BURST: 'many',
        SVC_WORKERS: '0',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT: must be between 0 and 65535',
      'DATABASE_URL: must be a postgres:// URL',
      'SVC_BODY_LIMIT_BYTES: must be positive',
      'SVC_RATE_LIMIT_BURST: must be a number',
      "LOG_LEVEL: Invalid enum value. Expected 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', received 'loud'",
      'SVC_WORKERS: must be a whole number from 1 to 999, or auto',
    ]);
  });

  it('when SVC_TRUST_PROXY is set, then it reads as Express trust proxy (false, hop count, addresses and ranges) and refuses true or garbage', () => {
    const trust = (v: string) => loadConfig({ SVC_TRUST_PROXY: v }).SVC_TRUST_PROXY;
    expect(trust('false')).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('loopback')).toEqual(['loopback']);
    expect(trust('10.0.0.0/8, 192.168.1.7,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    const problems = (v: string) => {
      try {
        loadConfig({ SVC_TRUST_PROXY: v });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems('true')).toEqual([
      "SVC_TRUST_PROXY: must not be true (every peer trusted): name the hop count or the proxies' addresses",
    ]);
    expect(problems('10.0.0.0/33')).toEqual([
      'SVC_TRUST_PROXY: must be false, a hop count, or addresses, CIDR ranges, loopback, linklocal, uniquelocal',
    ]);
    expect(problems('balancer.internal')).toEqual([
      'SVC_TRUST_PROXY: must be false, a hop count, or addresses, CIDR ranges, loopback, linklocal, uniquelocal',
    ]);
  });
});
