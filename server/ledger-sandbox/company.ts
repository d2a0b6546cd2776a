import { readFileSync } from 'node:fs';
import { providerDateTime } from '../domain/ledger/provider-time.js';

/** An entity as the provider returns it (XSD names: Id, SyncToken, MetaData, …). */
export type QboEntity = {
  Id: string;
  SyncToken?: string;
  MetaData?: { CreateTime?: string; LastUpdatedTime?: string };
  status?: string;
} & Record<string, unknown>;

export const SANDBOX_ENTITIES = ['Preferences', 'Item', 'Invoice'] as const;
export type SandboxEntity = (typeof SANDBOX_ENTITIES)[number];

/**
 * One company in the sandbox, in the provider's own entity shapes. The fixture
 * file is `{realmId, companyName, Preferences: {...}, Item: [...], Invoice: [...]}`.
 * `deleted` holds entities removed later, which CDC reports with `status: "Deleted"`.
 */
export interface SandboxCompany {
  realmId: string;
  companyName: string;
  Preferences: QboEntity;
  Item: QboEntity[];
  Invoice: QboEntity[];
  deleted: { entity: SandboxEntity; Id: string; at: string }[];
}

export function parseCompany(raw: unknown): SandboxCompany {
  const c = raw as Partial<SandboxCompany>;
  if (!c || typeof c.realmId !== 'string' || !Array.isArray(c.Invoice) || !Array.isArray(c.Item) || typeof c.Preferences !== 'object') {
    throw new Error('fixture must be {realmId, companyName, Preferences: {...}, Item: [...], Invoice: [...]}');
  }
  return { companyName: 'Sandbox Company', deleted: [], ...c } as SandboxCompany;
}

export function loadCompanyFile(file: string): SandboxCompany {
  return parseCompany(JSON.parse(readFileSync(file, 'utf8')));
}

/** All entities of one type, as a list (Preferences is a singleton). */
export function entitiesOf(company: SandboxCompany, entity: SandboxEntity): QboEntity[] {
  return entity === 'Preferences' ? [company.Preferences] : company[entity];
}

/** Change an entity the way the provider does: bump SyncToken and LastUpdatedTime. */
export function touchEntity(e: QboEntity, at = new Date()): void {
  e.SyncToken = String(Number(e.SyncToken ?? '0') + 1);
  // The provider keeps and writes times to the second, with an offset (docs/provider-facts.md §4.6).
  e.MetaData = { ...e.MetaData, LastUpdatedTime: providerDateTime(at) };
}

/** Delete an entity the way the provider does: gone from queries, reported by CDC with `status: "Deleted"`. */
export function deleteEntity(company: SandboxCompany, entity: 'Item' | 'Invoice', id: string, at = new Date()): void {
  company[entity] = company[entity].filter((e) => e.Id !== id);
  company.deleted.push({ entity, Id: id, at: providerDateTime(at) });
}
