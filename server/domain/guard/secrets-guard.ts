import type { Issue } from '../../../contract/common/index.js';
import { containsCardNumber } from './card-numbers.js';
import { rememberedNameVerdicts } from './name-verdicts.js';
import { isSecretName } from './secret-names.js';
import { containsSecretValue } from './secret-values.js';

export { containsCardNumber, passesLuhn } from './card-numbers.js';
export { isSecretName } from './secret-names.js';
export { containsSecretValue } from './secret-values.js';

/**
 * Deepest nesting of objects and arrays a request body may have (the top-level
 * object is level 1). The deepest legitimate body, an invoice's line items,
 * reaches 4 (docs/decisions.md).
 */
export const MAX_NESTING_DEPTH = 64;

const CARD_DATA: Omit<Issue, 'path'> = { code: 'card_data_not_allowed', message: 'Card numbers must never be sent to this service' };
const CREDENTIAL: Omit<Issue, 'path'> = {
  code: 'credential_not_allowed',
  message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
};
const TOO_DEEP: Omit<Issue, 'path'> = {
  code: 'nesting_too_deep',
  message: `Objects and arrays may be nested at most ${MAX_NESTING_DEPTH} levels deep`,
};

function pathOf(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

const UNSTORABLE_TEXT: Omit<Issue, 'path'> = {
  code: 'invalid_text',
  message: 'Text must be well-formed Unicode (no unpaired surrogate) without NUL characters',
};

/**
 * PostgreSQL text cannot hold U+0000, and an unpaired surrogate has no UTF-8
 * form (it would be stored as U+FFFD, silently changing the value): both are
 * refused wherever they appear, in values and in property names.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any NUL or surrogate at all: rare, so only such text pays for the pairing check. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NUL_OR_SURROGATE = /[\u0000\uD800-\uDFFF]/;
export function isStorableText(text: string): boolean {
  return !NUL_OR_SURROGATE.test(text) || !UNSTORABLE.test(text);
}

function stringIssue(text: string, scanSecrets: boolean, storableKnown = false): Omit<Issue, 'path'> | undefined {
  if (!storableKnown && !isStorableText(text)) return UNSTORABLE_TEXT;
  if (!scanSecrets) return undefined;
  if (containsCardNumber(text)) return CARD_DATA;
  if (containsSecretValue(text)) return CREDENTIAL;
  return undefined;
}

/**
 * The verdict on a property name where card data and credentials are refused:
 * a secret-named property is refused whole (its value is never inspected),
 * other names are text like any value.
 */
function judgePropertyName(name: string): Omit<Issue, 'path'> | undefined {
  return isSecretName(name) ? CREDENTIAL : stringIssue(name, true);
}
const propertyNames = rememberedNameVerdicts(judgePropertyName);

/** What the property-name cache holds, for tests that check its bounds. */
export const rememberedNameStats = () => propertyNames.stats();

/**
 * Find card data, credentials and text PostgreSQL cannot store anywhere in a
 * parsed JSON body, and objects or arrays nested deeper than MAX_NESTING_DEPTH (not entered; the issue names
 * where the limit was hit). Issues name the path only, never the value (it must
 * not be echoed or logged), in document order. The walk never goes deeper than
 * the limit, so no body can exhaust the call stack. `storableTextKnown`: the caller knows every string and name is
 * well-formed text without NUL (a body parsed from UTF-8 without a \u escape), so that check is skipped.
 */
export function findSecrets(body: unknown, options: { storableTextKnown?: boolean } = {}): Issue[] {
  return inspect(body, true, options.storableTextKnown === true);
}

/**
 * `findSecrets` without the card-data and credential checks, for input that may
 * carry credentials on purpose (the operator surface) and for query and path
 * parameters: nesting (too deep a body would overflow the call stack of code
 * that walks it recursively, JSON.stringify for one) and text PostgreSQL cannot store.
 */
export function findUnsafeStructure(body: unknown): Issue[] {
  return inspect(body, false);
}

/**
 * Path parameters that carry an identifier the accounting provider assigned (its company id, often 15-19 digits, a
 * tenth of which pass Luhn): the route looks them up, and a card-number-shaped value is refused there when it names no
 * connection of the key (`refuseCardDataReference`), so a real company id is never locked out.
 */
const PROVIDER_ASSIGNED_PARAMETERS: ReadonlySet<string> = new Set(['connectionId']);

/**
 * Card data, credentials and unstorable text in a request's path and query parameters: refused with the same issues
 * as in a body, each at the parameter's name (spec: "requests containing credentials or card data are rejected").
 */
export function findSecretsInParameters(params: Record<string, unknown>, query: Record<string, unknown>): Issue[] {
  const pathIssues = findSecrets(params).filter((i) => !(i.code === CARD_DATA.code && PROVIDER_ASSIGNED_PARAMETERS.has(i.path)));
  return [...pathIssues, ...findSecrets(query)];
}

/** The refusal of a provider-assigned reference that names nothing and holds a card number; undefined otherwise. */
export function cardDataReferenceIssue(path: string, value: string): Issue | undefined {
  return containsCardNumber(value) ? { ...CARD_DATA, path } : undefined;
}

/**
 * One walk of a body. Every string of every request passes here, so the walk
 * keeps the keys leading to the current value on one stack and builds a path
 * only for an issue, instead of a path string per value.
 */
class Inspection {
  readonly issues: Issue[] = [];
  private readonly trail: (string | number)[] = [];

  constructor(
    private readonly scanSecrets: boolean,
    private readonly storableKnown: boolean,
  ) {}

  visit(value: unknown, depth: number): void {
    if (typeof value === 'string') {
      const issue = stringIssue(value, this.scanSecrets, this.storableKnown);
      if (issue) this.report(issue);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (depth > MAX_NESTING_DEPTH) {
      this.report(TOO_DEEP);
      return;
    }
    const trail = this.trail;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        trail.push(index);
        this.visit(value[index], depth + 1);
        trail.pop();
      }
      return;
    }
    // for…in over a parsed body's own keys without the array Object.keys builds (JSON.parse makes plain objects whose
    // prototype adds no enumerable key; anything else is checked for own keys).
    const plain = Object.getPrototypeOf(value) === Object.prototype;
    for (const key in value) {
      if (!plain && !Object.hasOwn(value, key)) continue;
      trail.push(key);
      const keyIssue = this.scanSecrets ? propertyNames.verdict(key) : stringIssue(key, false);
      if (keyIssue) this.report(keyIssue);
      else this.visit((value as Record<string, unknown>)[key], depth + 1);
      trail.pop();
    }
  }

  private report(issue: Omit<Issue, 'path'>): void {
    let path = '';
    for (const key of this.trail) path = pathOf(path, key);
    this.issues.push({ ...issue, path });
  }
}

function inspect(body: unknown, scanSecrets: boolean, storableKnown = false): Issue[] {
  const inspection = new Inspection(scanSecrets, storableKnown);
  inspection.visit(body, 1);
  return inspection.issues;
}

/** The message of a refusal by the guard: the specific one when every issue is of one kind. */
export function refusalMessage(issues: Issue[]): string {
  if (issues.every((issue) => issue.code === TOO_DEEP.code)) return 'The request body nests objects and arrays too deeply';
  if (issues.every((issue) => issue.code === UNSTORABLE_TEXT.code)) {
    return 'The request contains text that is not well-formed Unicode or contains NUL characters';
  }
  return 'The request contains card data or credentials, which this service never accepts';
}
