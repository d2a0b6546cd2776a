import express, { type Request, type Response, type Router } from 'express';
import { entitiesOf, SANDBOX_ENTITIES, type QboEntity, type SandboxCompany } from './company.js';
import { delayFor, faultBodies, type FaultQueue } from './faults.js';
import type { SandboxTokens } from './oauth-state.js';
import { checkDateTime, parseQuery, QueryParseError, runQuery } from './query.js';

export interface ApiDeps {
  companies: Map<string, SandboxCompany>;
  tokens: SandboxTokens;
  faults: FaultQueue;
  /** Requests per minute per realm before 429 (provider: 500). */
  rateLimitPerMinute: number;
  /** Strict protocol checks (see `SandboxOptions.strict`); read on every request. */
  strict: () => boolean;
  /** Random source for the order of tied rows in strict mode. */
  random: () => number;
  /** Test hook: called before each admitted query or CDC request is answered (may change the company). */
  beforeAnswer?: () => ((req: { kind: 'query' | 'cdc'; statement: string; url: string }) => void) | undefined;
}

const CDC_MAX_OBJECTS = 1000;
const CDC_LOOKBACK_MS = 30 * 86_400_000;

/** Bearer check, throttle and injected faults shared by query and CDC; undefined when answered already. */
async function admit(
  deps: ApiDeps,
  window: Map<string, { start: number; n: number }>,
  req: Request,
  res: Response,
): Promise<SandboxCompany | undefined> {
  const fault = deps.faults.take('api');
  await delayFor(fault);
  if (fault?.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(fault.retryAfterSeconds));
  if (fault?.kind === 'throttle') return void res.status(429).json(faultBodies.throttled());
  if (fault?.kind === 'server_error') return void res.status(fault.status ?? 500).json(faultBodies.serverError());
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const access = fault?.kind === 'expired_token' ? { error: 'Token expired' } : deps.tokens.checkAccess(bearer);
  if ('error' in access) {
    res.setHeader('www-authenticate', 'Bearer realm="Intuit", error="invalid_token"');
    return void res.status(401).json(faultBodies.unauthorized(access.error));
  }
  const realmId = String(req.params.realmId);
  const company = deps.companies.get(realmId);
  if (!company || access.realmId !== realmId) return void res.status(403).json(faultBodies.forbidden());
  const now = Date.now();
  const w = window.get(realmId);
  if (!w || now - w.start >= 60_000) window.set(realmId, { start: now, n: 1 });
  else if (++w.n > deps.rateLimitPerMinute) return void res.status(429).json(faultBodies.throttled());
  return company;
}

/** `GET|POST /v3/company/{realmId}/query`, `GET /v3/company/{realmId}/cdc` (docs/provider-facts.md §4.6) and `GET /v3/company/{realmId}/companyinfo/{realmId}`. */
export function apiRoutes(deps: ApiDeps): Router {
  const router = express.Router();
  const window = new Map<string, { start: number; n: number }>();

  const query = async (req: Request, res: Response) => {
    const company = await admit(deps, window, req, res);
    if (!company) return;
    const statement = req.method === 'POST' ? String(req.body ?? '') : String(req.query.query ?? '');
    deps.beforeAnswer?.()?.({ kind: 'query', statement, url: req.originalUrl });
    try {
      const q = parseQuery(statement);
      if (deps.strict()) for (const c of q.where) if (/time/i.test(c.field)) checkDateTime(c.field, c.value);
      const { rows, total } = runQuery(entitiesOf(company, q.entity), q, deps.strict() ? { unstableTies: deps.random } : {});
      const body = q.count
        ? { QueryResponse: { totalCount: total }, time: new Date().toISOString() }
        : {
            QueryResponse: rows.length ? { [q.entity]: rows, startPosition: q.startPosition, maxResults: rows.length } : {},
            time: new Date().toISOString(),
          };
      res.json(body);
    } catch (err) {
      if (err instanceof QueryParseError) return void res.status(400).json(faultBodies.validation(err.message));
      throw err;
    }
  };
  router.get('/v3/company/:realmId/query', query);
  router.post('/v3/company/:realmId/query', express.text({ type: 'application/text' }), query);

  // CompanyInfo: the service reads it right after the code exchange to confirm the realm (403 for another company's token).
  router.get('/v3/company/:realmId/companyinfo/:companyId', async (req, res) => {
    const company = await admit(deps, window, req, res);
    if (!company) return;
    if (String(req.params.companyId) !== company.realmId) return void res.status(403).json(faultBodies.forbidden());
    res.json({ CompanyInfo: { Id: company.realmId, CompanyName: company.companyName, SyncToken: '0' }, time: new Date().toISOString() });
  });

  router.get('/v3/company/:realmId/cdc', async (req, res) => {
    const company = await admit(deps, window, req, res);
    if (!company) return;
    deps.beforeAnswer?.()?.({ kind: 'cdc', statement: String(req.query.entities ?? ''), url: req.originalUrl });
    const names = String(req.query.entities ?? '')
      .split(',')
      .map((s) => s.trim());
    if (deps.strict() && req.query.changedSince !== undefined) {
      try {
        checkDateTime('changedSince', String(req.query.changedSince));
      } catch (err) {
        return void res.status(400).json(faultBodies.validation((err as Error).message, '2011'));
      }
    }
    const since = Date.parse(String(req.query.changedSince ?? ''));
    if (Number.isNaN(since)) return void res.status(400).json(faultBodies.validation('changedSince is required', '2011'));
    if (Date.now() - since > CDC_LOOKBACK_MS)
      return void res.status(400).json(faultBodies.validation('changedSince must be within the last 30 days', '2011'));
    let budget = CDC_MAX_OBJECTS;
    const responses = SANDBOX_ENTITIES.filter((e) => names.includes(e)).map((entity) => {
      const changed: QboEntity[] = entitiesOf(company, entity).filter((e) => Date.parse(e.MetaData?.LastUpdatedTime ?? '') >= since);
      const deleted = company.deleted
        .filter((d) => d.entity === entity && Date.parse(d.at) >= since)
        .map((d) => ({ Id: d.Id, status: 'Deleted', MetaData: { LastUpdatedTime: d.at } }));
      const all = [...changed, ...deleted].slice(0, budget);
      budget -= all.length;
      return { [entity]: all, startPosition: 1, maxResults: all.length, totalCount: all.length };
    });
    res.json({ CDCResponse: [{ QueryResponse: responses }], time: new Date().toISOString() });
  });
  return router;
}
