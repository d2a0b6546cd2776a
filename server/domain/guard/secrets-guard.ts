import type { Issue } from '../../../contract/common/index.js';
import { containsCardNumber } from './card-numbers.js';
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
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

function stringIssue(text: string, scanSecrets: boolean): Omit<Issue, 'path'> | undefined {
  if (!isStorableText(text)) return UNSTORABLE_TEXT;
  if (!scanSecrets) return undefined;
  if (containsCardNumber(text)) return CARD_DATA;
  if (containsSecretValue(text)) return CREDENTIAL;
  return undefined;
}

/** A value still to inspect, or an issue of a property name kept on the stack so issues stay in document order. */
type Pending =
  { value: unknown; path: string /** Nesting level of the value if it is an object or array. */; depth: number } | { issue: Issue };

/**
 * Find card data, credentials and text PostgreSQL cannot store anywhere in a
 * parsed JSON body, and objects or arrays nested deeper than MAX_NESTING_DEPTH (not entered; the issue names
 * where the limit was hit). Issues name the path only, never the value (it must
 * not be echoed or logged), in document order. The walk uses its own stack, so
 * no body can exhaust the call stack.
 */
export function findSecrets(body: unknown): Issue[] {
  return inspect(body, true);
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

function inspect(body: unknown, scanSecrets: boolean): Issue[] {
  const issues: Issue[] = [];
  const stack: Pending[] = [{ value: body, path: '', depth: 1 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if ('issue' in next) {
      issues.push(next.issue);
      continue;
    }
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      const issue = stringIssue(value, scanSecrets);
      if (issue) issues.push({ ...issue, path });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_NESTING_DEPTH) {
      issues.push({ ...TOO_DEEP, path });
      continue;
    }
    // Children are pushed last-first so that they are visited, and reported, in document order.
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        stack.push({ value: value[index], path: pathOf(path, index), depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      const innerPath = pathOf(path, key);
      // A secret-named property is refused whole: its value is never inspected.
      const keyIssue = scanSecrets && isSecretName(key) ? CREDENTIAL : stringIssue(key, scanSecrets);
      stack.push(keyIssue ? { issue: { ...keyIssue, path: innerPath } } : { value: inner, path: innerPath, depth: depth + 1 });
    }
  }
  return issues;
}

/** The message of a refusal by the guard: the specific one when every issue is of one kind. */
export function refusalMessage(issues: Issue[]): string {
  if (issues.every((issue) => issue.code === TOO_DEEP.code)) return 'The request body nests objects and arrays too deeply';
  if (issues.every((issue) => issue.code === UNSTORABLE_TEXT.code)) {
    return 'The request contains text that is not well-formed Unicode or contains NUL characters';
  }
  return 'The request contains card data or credentials, which this service never accepts';
}
