import { companyGet, type LedgerEndpoints } from './ledger-api.js';
import { providerDateTime } from '../../domain/ledger/provider-time.js';

/**
 * Change data capture: `GET /v3/company/{realmId}/cdc?entities=…&changedSince=…`
 * (`CDCResponse[0].QueryResponse[] {<Entity>[]}`); deleted entities carry `status: "Deleted"`.
 * Looks back at most 30 days and returns at most 1000 objects (docs/provider-facts.md §4.6).
 */
export async function changesSince(
  ep: LedgerEndpoints,
  o: { realmId: string; accessToken: string; entities: string[]; changedSince: Date },
): Promise<Record<string, Record<string, unknown>[]>> {
  const params = { entities: o.entities.join(','), changedSince: providerDateTime(o.changedSince) };
  const body = (await companyGet(ep, { ...o, path: 'cdc', params, operation: 'cdc' })) as {
    CDCResponse?: { QueryResponse?: Record<string, unknown>[] }[];
  };
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const qr of body?.CDCResponse?.[0]?.QueryResponse ?? []) {
    for (const entity of o.entities)
      if (Array.isArray(qr[entity])) out[entity] = [...(out[entity] ?? []), ...(qr[entity] as Record<string, unknown>[])];
  }
  return out;
}
