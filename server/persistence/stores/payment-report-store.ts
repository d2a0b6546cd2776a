import type { PaymentReportStore } from '../../domain/payment-reports/ports.js';
import type { Database } from '../kysely.js';
import * as reports from '../sql/payment-reports.sql.js';
import { claimingKeys } from './key-taken.js';

/** The payment-report port on one database handle (a transaction or the pool); a unique violation is `KeyTaken`. */
export function paymentReportStore(db: Database): PaymentReportStore {
  return {
    findObservationByEvent: (scope, eventId) => reports.findObservationByEvent(db, scope, eventId),
    lockPayment: (scope, input) => claimingKeys(reports.lockPayment(db, scope, input)),
    lockPaymentByProviderId: (scope, providerPaymentId) => reports.lockPaymentByProviderId(db, scope, providerPaymentId),
    adoptAttemptId: (scope, paymentId, attemptId) => claimingKeys(reports.adoptAttemptId(db, scope, paymentId, attemptId)),
    observationsOf: (paymentId) => reports.observationsOf(db, paymentId),
    observationHistoryOf: (paymentId) => reports.observationHistoryOf(db, paymentId),
    mergeProvisional: (provisionalId, intoId) => claimingKeys(reports.mergeProvisional(db, provisionalId, intoId)),
    isPaymentIdClaimed: (scope, providerPaymentId, exceptPaymentId) =>
      reports.isPaymentIdClaimed(db, scope, providerPaymentId, exceptPaymentId),
    insertObservation: (scope, row) => claimingKeys(reports.insertObservation(db, scope, row)),
    updateProjection: (paymentId, projection) => claimingKeys(reports.updateProjection(db, paymentId, projection)),
    insertCorrelationException: (scope, row) => claimingKeys(reports.insertCorrelationException(db, scope, row)),
    findEnrichmentRecord: (input) => reports.findEnrichmentRecord(db, input),
    recordFirstOrFindPrevious: (first) => claimingKeys(reports.recordFirstOrFindPrevious(db, first)),
    listTrackedPayments: (input) => reports.listTrackedPayments(db, input),
    trackedPaymentById: (id) => reports.trackedPaymentById(db, id),
    listCorrelationExceptions: (input) => reports.listCorrelationExceptions(db, input),
  };
}
