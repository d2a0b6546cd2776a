import { createExpressEndpoints, initServer } from '@ts-rest/express';
import type { IRouter, NextFunction, Request, Response } from 'express';
import { contract } from '../../contract/index.js';
import { DomainError } from '../domain/errors.js';
import type { AppDeps } from './app.js';
import { cachedKeyDirectory, type KeyDirectory } from '../domain/auth/key-directory.js';
import { groupCommittedEnrichmentRecords } from '../persistence/enrichment-record-group-commit.js';
import { groupCommittedFirstReports } from '../persistence/report-group-commit.js';
import { pooledPreparationStore } from '../persistence/preparation-store.js';
import { sharedReads, type SharedReads } from '../persistence/shared-reads.js';
import { snapshotChecksCache } from '../domain/invoices/index.js';
import { poolDatabase, type Database } from '../persistence/kysely.js';
import { poolUnitOfWork } from '../persistence/unit-of-work.js';
import type { FailedAuthentications } from './middleware/failed-auth-gate.js';
import { withFastBodies } from './validation/fast-contract.js';
import { routeGuards } from './middleware/route-guards.js';
import { apiRateLimit } from './middleware/rate-limit.js';
import { issuesFromZodError } from '../domain/zod-issues.js';
import type { RequestValidationError } from '@ts-rest/express';
import { inlineEnrichmentHandlers } from './routes/inline-enrichment.js';
import { paymentReportHandlers } from './routes/payment-reports.js';
import { invoiceHandlers } from './routes/invoices.js';
import { preparationHandlers } from './routes/preparations.js';
import { ledgerHandlers } from './routes/ledger.js';

const s = initServer();

/** Contract violations (path, query, body) in our envelope: one issue per problem, all parts at once. */
function requestValidationError(err: RequestValidationError, _req: Request, _res: Response, next: NextFunction): void {
  const issues = [
    ...(err.pathParams ? issuesFromZodError(err.pathParams) : []),
    ...(err.query ? issuesFromZodError(err.query) : []),
    ...(err.headers ? issuesFromZodError(err.headers) : []),
    ...(err.body ? issuesFromZodError(err.body) : []),
  ];
  next(new DomainError('validation_error', 'The request does not match the API contract', issues));
}

/** What the API's authentication shares with the front of the app (the failed-authentication gate). */
export interface ApiAccess {
  /** The pool as the typed database: what the group-committed writes and the preparation reads run on. */
  db: Database;
  reads: SharedReads;
  keys: KeyDirectory;
}

/** Hot paths: single statements on the pool, key records cached per auth epoch. */
export function apiAccess(deps: Pick<AppDeps, 'orm'>): ApiAccess {
  const db = poolDatabase(deps.orm);
  // Reads shared by concurrent requests: the key cache's epoch rides on preparation reads when there are any.
  const reads = sharedReads(db);
  return { db, reads, keys: cachedKeyDirectory(poolUnitOfWork(deps.orm), reads.authEpoch) };
}

/** Mount every contract route with the cross-cutting guards on `app` (`routeByPath`'s target); writes are group-committed. */
export function mountApi(app: IRouter, deps: AppDeps, access: ApiAccess, failures: FailedAuthentications): void {
  const { db, reads, keys } = access;
  const reports = paymentReportHandlers(groupCommittedFirstReports(db));
  const enrich = inlineEnrichmentHandlers(groupCommittedEnrichmentRecords(db));
  // Snapshots are immutable: their readiness results are kept by id (explicit, bounded; source state is checked each time).
  const prepare = preparationHandlers({ store: pooledPreparationStore(db, reads), checks: snapshotChecksCache() });
  const router = s.router(contract, {
    gwa: { enrichTransaction: enrich.gwa, enrichTransactionFromInvoice: prepare.gwa, reportPayment: reports.gwa },
    gwb: { enrichOrder: enrich.gwb, enrichOrderFromInvoice: prepare.gwb, reportPayment: reports.gwb },
    gwc: {
      enrichPaymentIntent: enrich.gwc,
      enrichPaymentIntentFromInvoice: prepare.gwc,
      preparePaymentFromInvoice: prepare.gwcPreparation,
      reportPayment: reports.gwc,
    },
    invoices: invoiceHandlers(),
    ledger: ledgerHandlers(deps.ledger),
  });
  createExpressEndpoints(withFastBodies(contract), router, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: deps.config.SVC_RESPONSE_VALIDATION,
    globalMiddleware: [
      routeGuards({ config: deps.config, keys, failures, mac: deps.keyMac }, apiRateLimit(poolUnitOfWork(deps.orm), deps.config)),
    ],
    requestValidationErrorHandler: requestValidationError,
  });
}
