import type { Provider, Scope } from '../../../contract/common/index.js';
import type { Issue } from '../../../contract/common/index.js';

/** Scopes that only a ledger (accounting-source) key may hold (spec: Authentication, scopes). */
const LEDGER_SCOPES: ReadonlySet<Scope> = new Set(['integrations:write', 'integrations:read']);

/**
 * Which scopes a key of this provider may hold. `invoices:read` additionally
 * needs an explicit link, checked by the caller with `linked`.
 */
export function scopeIssues(provider: Provider, scopes: readonly Scope[], linked: boolean): Issue[] {
  const issues: Issue[] = [];
  scopes.forEach((scope, index) => {
    const path = `scopes[${index}]`;
    if (provider === 'ledger' && !LEDGER_SCOPES.has(scope)) {
      issues.push({ code: 'scope_not_allowed', path, message: `${scope} is not available on a ledger key` });
    } else if (provider !== 'ledger' && LEDGER_SCOPES.has(scope)) {
      issues.push({ code: 'scope_not_allowed', path, message: `${scope} is only available on a ledger key` });
    } else if (scope === 'invoices:read' && !linked) {
      issues.push({
        code: 'link_required',
        path,
        message: 'invoices:read needs an explicit link between this integration and a ledger integration (links.create)',
      });
    }
  });
  return issues;
}
