import type { PaymentProvider } from '../../../contract/common/index.js';
import type { PaymentReport } from '../../../contract/payment-reports.js';

/** The provider's stable payment identity and account alias in a report, whatever the provider. */
export interface ReportAliases {
  providerPaymentId: string | null;
  accountId: string | null;
  chargeId: string | null;
  orderId: string | null;
}

export function reportAliases(provider: PaymentProvider, report: PaymentReport): ReportAliases {
  const r = report as unknown as Record<string, string | undefined>;
  switch (provider) {
    case 'gwa':
      return { providerPaymentId: r.transactionId ?? null, accountId: r.merchantAccountId ?? null, chargeId: null, orderId: null };
    case 'gwb':
      return { providerPaymentId: r.paymentId ?? null, accountId: r.locationId ?? null, chargeId: null, orderId: r.orderId ?? null };
    case 'gwc':
      return {
        providerPaymentId: r.paymentIntentId ?? null,
        accountId: r.gwcAccountId ?? null,
        chargeId: r.chargeId ?? null,
        orderId: null,
      };
  }
}

/**
 * The report as stored and hashed: keys sorted, `occurredAt` as the UTC instant
 * with milliseconds, so a retry that writes the same instant differently
 * (`Z` vs `+00:00`) is still the identical report.
 */
export function normalizeReport(report: PaymentReport): Record<string, unknown> {
  const normalized: Record<string, unknown> = {};
  for (const key of Object.keys(report).sort()) {
    const value = (report as Record<string, unknown>)[key];
    if (value === undefined) continue;
    normalized[key] = key === 'occurredAt' ? new Date(value as string).toISOString() : value;
  }
  return normalized;
}
