import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * Every setting the service reads, parsed once at start-up. Nothing else reads
 * `process.env`; the typed result is passed down. Documented in README.md.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const port = (fallback: number) =>
  z.coerce
    .number({ invalid_type_error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const positiveInt = (fallback: number) =>
  z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be positive').default(fallback);

const optionalUrl = optionalString.pipe(
  z
    .string()
    .url('must be an http(s):// URL')
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s):// URL')
    .optional(),
);
const optionalPositiveInt = optionalString.pipe(
  z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be positive').optional(),
);
const optionalPort = optionalString.pipe(
  z.coerce.number({ invalid_type_error: 'must be a port number' }).int().min(0).max(65535, 'must be between 0 and 65535').optional(),
);

export const ConfigSchema = z
  .object({
    PORT: port(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .url('must be a postgres:// URL')
        .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL')
        .optional(),
    ),
    SVC_DATA_DIR: z.string().min(1).default('.svc'),
    SVC_EMBEDDED_PG_PORT: port(54329),
    SVC_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
    SVC_ADMIN_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** Bearer token of GET /metrics; unset: the admin token (docs/operations.md). */
    SVC_METRICS_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** `npm run worker` only: serve its GET /metrics on this port (HOST), with SVC_METRICS_TOKEN or SVC_ADMIN_TOKEN. Unset: none. */
    SVC_WORKER_METRICS_PORT: optionalPort,
    SVC_BODY_LIMIT_BYTES: positiveInt(1_048_576),
    SVC_SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
    /** Connections of the service's database pool. */
    SVC_DB_POOL_MAX: positiveInt(10),
    /**
     * How long a request waits for a pooled connection, and how long opening one
     * may take, before it fails with 503 `service_unavailable` (docs/reliability.md,
     * "Database outage"): while PostgreSQL is down no request hangs longer.
     */
    SVC_DB_ACQUIRE_TIMEOUT_MS: positiveInt(5_000),
    /** Longest a single SQL statement may run; PostgreSQL cancels it beyond (503 for a request). Migrations included. */
    SVC_DB_STATEMENT_TIMEOUT_MS: positiveInt(30_000),
    /**
     * Per-key token bucket on /api/v1 (docs/reliability.md, "Rate limits"): a key
     * may burst to SVC_RATE_LIMIT_BURST requests and is refilled at
     * SVC_RATE_LIMIT_PER_SECOND; beyond, 429 `rate_limited` with Retry-After. The
     * bucket lives in PostgreSQL, so the limit holds across processes; each process
     * leases up to SVC_RATE_LIMIT_LEASE tokens per database round trip.
     */
    SVC_RATE_LIMIT_PER_SECOND: positiveInt(100),
    SVC_RATE_LIMIT_BURST: positiveInt(1_000),
    SVC_RATE_LIMIT_LEASE: positiveInt(20),
    /**
     * Per-endpoint token bucket on gwa webhook deliveries (docs/decisions.md, "gwa
     * webhook"), shared by all processes like the per-key one: a burst the provider
     * never sends is refused with 429 `rate_limited` and Retry-After.
     */
    /**
     * Failed authentications (401) one client address may make: bursts of
     * SVC_AUTH_FAILURE_BURST, refilled at SVC_AUTH_FAILURES_PER_SECOND; beyond, its
     * requests get 429 `rate_limited` with Retry-After before any key lookup.
     */
    SVC_AUTH_FAILURES_PER_SECOND: positiveInt(10),
    SVC_AUTH_FAILURE_BURST: positiveInt(100),
    /**
     * A blocked client's 429 is sent after this many milliseconds (0: at once), so a
     * flood over kept-alive connections goes at one request per second per
     * connection; at most SVC_AUTH_MAX_HELD_REFUSALS wait at a time, beyond that they
     * are sent at once (server/http/middleware/failed-auth-gate.ts).
     */
    SVC_AUTH_REFUSAL_HOLD_MS: z.coerce
      .number({ invalid_type_error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 10000')
      .max(10_000, 'must be between 0 and 10000')
      .default(1_000),
    SVC_AUTH_MAX_HELD_REFUSALS: positiveInt(1_000),
    /**
     * Which peers may name the client in `X-Forwarded-For` (Express `trust proxy` syntax, docs/operations.md,
     * "Behind a load balancer"): unset or `false`, none (the peer is the client); a hop count; or a comma-separated
     * list of addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`. Every per-client limit
     * keys on the client this yields (server/http/client-identity.ts).
     */
    SVC_TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        return parsed;
      }),
    SVC_WEBHOOK_RATE_LIMIT_PER_SECOND: positiveInt(20),
    SVC_WEBHOOK_RATE_LIMIT_BURST: positiveInt(200),
    /** Check every response against the contract before sending (tests turn it on; it costs CPU per request). */
    SVC_RESPONSE_VALIDATION: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /**
     * OpenTelemetry traces (docs/operations.md, "Traces"): the OTLP/HTTP collector's base URL (`/v1/traces` is
     * appended). Unset: no tracing at all. The SDK also honours the standard OTEL_* variables it reads itself.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    OTEL_SERVICE_NAME: z.string().min(1).default('svc'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * How many HTTP processes serve PORT (node:cluster): a whole number, or `auto` for one per core. Default 1 (no
     * cluster). With more, the primary alone migrates, starts the embedded database and the in-process ledger
     * sandbox, and only the first process runs the in-process sync worker (server/cluster.ts).
     */
    SVC_WORKERS: z
      .string()
      .default('1')
      .refine((v) => v === 'auto' || /^[1-9][0-9]{0,2}$/.test(v), 'must be a whole number from 1 to 999, or auto'),
    // Accounting source (ledger). Unset values stay `undefined` here and get their
    // documented defaults in `ledgerSettings` (README: Configuration).
    SVC_PUBLIC_URL: optionalUrl,
    SVC_TOKEN_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64')
        .optional(),
    ),
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    SMTP_FROM: optionalString,
    LEDGER_BASE_URL: optionalUrl,
    LEDGER_AUTH_URL: optionalUrl,
    LEDGER_TOKEN_URL: optionalUrl,
    /** Unset: derived from LEDGER_TOKEN_URL (server/integrations/ledger/runtime.ts). */
    LEDGER_REVOKE_URL: optionalUrl,
    LEDGER_CLIENT_ID: optionalString,
    LEDGER_CLIENT_SECRET: optionalString,
    LEDGER_REDIRECT_URL: optionalUrl,
    LEDGER_SANDBOX_PORT: optionalPort,
    LEDGER_HISTORY_DAYS: optionalPositiveInt,
    LEDGER_RECONCILE_AFTER_DAYS: optionalPositiveInt,
    LEDGER_PAGE_SIZE: optionalPositiveInt.pipe(z.number().max(1000, 'must be at most 1000').optional()),
    LEDGER_HTTP_TIMEOUT_MS: optionalPositiveInt,
    LEDGER_MAX_RETRIES: optionalPositiveInt,
    LEDGER_BACKOFF_BASE_MS: optionalPositiveInt,
    LEDGER_BACKOFF_MAX_MS: optionalPositiveInt,
    LEDGER_JOB_RETRY_DELAY_SECONDS: optionalPositiveInt,
    LEDGER_JOB_POLL_MS: optionalPositiveInt.pipe(z.number().min(500, 'must be at least 500').optional()),
    LEDGER_REAP_INTERVAL_MS: optionalPositiveInt,
    LEDGER_LEASE_GRACE_MS: optionalPositiveInt,
    LEDGER_INVITATIONS_PER_KEY_PER_HOUR: optionalPositiveInt,
    LEDGER_WORKER: optionalString.pipe(z.enum(['in-process', 'off']).optional()),
  })
  .superRefine((c, ctx) => {
    const ledger = ['LEDGER_BASE_URL', 'LEDGER_AUTH_URL', 'LEDGER_TOKEN_URL', 'LEDGER_CLIENT_ID', 'LEDGER_CLIENT_SECRET'] as const;
    if (ledger.some((k) => c[k] !== undefined)) {
      for (const k of ledger)
        if (c[k] === undefined)
          ctx.addIssue({ code: 'custom', path: [k], message: 'must be set when any LEDGER_* provider URL or client setting is set' });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Who may name the client: nobody, the nearest `hops` proxies, or the peers in these addresses and ranges. */
export type TrustProxy = false | number | string[];

const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (TRUST_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * `SVC_TRUST_PROXY` as the value given to Express's `trust proxy`, or the problem with it. `true` (trust every peer)
 * is refused: it lets any client name itself anything (docs/decisions.md, "Client identity behind proxies").
 */
function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return "must not be true (every peer trusted): name the hop count or the proxies' addresses";
  if (/^[0-9]+$/.test(v)) return Number(v) <= 100 ? Number(v) : 'a hop count must be at most 100';
  const entries = v.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrRange(e));
  if (bad.length > 0) return 'must be false, a hop count, or addresses, CIDR ranges, loopback, linklocal, uniquelocal';
  return entries;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parse the environment; on failure, name every bad variable (never its value: it may be a secret). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(problems);
}

/** The ledger settings with their documented defaults applied (README: Configuration). */
export function ledgerSettings(c: Config) {
  return {
    publicUrl: (c.SVC_PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    /** No provider configured: `npm start` runs the ledger sandbox in-process. */
    embeddedSandbox: c.LEDGER_BASE_URL === undefined,
    sandboxPort: c.LEDGER_SANDBOX_PORT ?? 0,
    smtpFrom: c.SMTP_FROM ?? 'svc <no-reply@localhost>',
    historyDays: c.LEDGER_HISTORY_DAYS ?? 365,
    reconcileAfterDays: c.LEDGER_RECONCILE_AFTER_DAYS ?? 30,
    pageSize: c.LEDGER_PAGE_SIZE ?? 500,
    httpTimeoutMs: c.LEDGER_HTTP_TIMEOUT_MS ?? 30_000,
    maxRetries: c.LEDGER_MAX_RETRIES ?? 5,
    backoffBaseMs: c.LEDGER_BACKOFF_BASE_MS ?? 1_000,
    backoffMaxMs: c.LEDGER_BACKOFF_MAX_MS ?? 60_000,
    jobRetryDelaySeconds: c.LEDGER_JOB_RETRY_DELAY_SECONDS ?? 30,
    /** How often a worker looks for sync jobs; the worker of the process that queues one is told at once. */
    jobPollMs: c.LEDGER_JOB_POLL_MS ?? 500,
    /** How often each worker looks for runs whose worker died (docs/ledger-sync.md). */
    reapIntervalMs: c.LEDGER_REAP_INTERVAL_MS ?? 30_000,
    /** How long a delivered job may go without its run's lease before its worker counts as dead. */
    leaseGraceMs: c.LEDGER_LEASE_GRACE_MS ?? 60_000,
    worker: c.LEDGER_WORKER ?? 'in-process',
    /** Invitations one API key may create per trailing hour (429 with Retry-After beyond). */
    invitationsPerKeyPerHour: c.LEDGER_INVITATIONS_PER_KEY_PER_HOUR ?? 20,
  };
}
export type LedgerSettings = ReturnType<typeof ledgerSettings>;

/** `SVC_WORKERS` as a number of processes: `auto` is one per core (server/cluster.ts). */
export function workerCount(setting: string): number {
  return setting === 'auto' ? availableParallelism() : Number(setting);
}
