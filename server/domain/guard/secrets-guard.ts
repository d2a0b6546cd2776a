import type { Issue } from '../../../contract/common/index.js';

/**
 * Property names that carry secrets, compared after lowercasing and dropping
 * everything but letters and digits (`payment_method_nonce` → `paymentmethodnonce`).
 * A name matches when it contains one of these.
 */
const SECRET_NAME_PARTS = [
  'nonce',
  'cardnumber',
  'creditcard',
  'cvv',
  'cvc',
  'securitycode',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'clientsecret',
  'applicationsecret',
  'appsecret',
  'apisecret',
  'apikey',
  'secretkey',
  'signingsecret',
  'webhooksecret',
  'password',
  'passwd',
  'passphrase',
  'privatekey',
  'authorization',
];
/** Names that are secrets only as a whole word (as parts they are too common). */
const SECRET_NAMES = new Set(['pan', 'token', 'secret', 'pin']);

/** A run of digits with single spaces or dashes between them, not part of a longer run. */
const DIGIT_RUN = /(?<![0-9][ -]?)[0-9](?:[ -]?[0-9])*/g;
/**
 * How card numbers are written when grouped: 4-4-4-1..7 (most schemes) or
 * 4-6-4/5 (Amex, Diners). Other groupings (UUIDs' 8-4-4-4-12, dates, phone
 * numbers) are not read as one card number; their separator-free parts still are.
 */
const CARD_GROUPINGS = [/^[0-9]{4}([ -][0-9]{4}){2}[ -][0-9]{1,7}$/, /^[0-9]{4}[ -][0-9]{6}[ -][0-9]{4,5}$/];

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Identifiers this service issues or accepts by shape are never card data, and
 * are removed before scanning: UUIDs (their all-digit groups could line up as
 * 4-4-4-x) and `x-svc-request-id`s (`req_` + 32 hex, which a caller echoes as
 * `enrichmentRequestId`; about 1 in 2,000 holds a Luhn-valid digit run).
 */
const KNOWN_IDENTIFIERS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\breq_[0-9a-f]{32}\b/gi;

const isPan = (digits: string) => digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);

/** Whether the text has at least 13 digits at all: most strings do not, and skip the scan. */
function hasThirteenDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++digits >= 13) return true;
  }
  return false;
}

/** True when the text holds a Luhn-valid 13-19 digit card number, plain or grouped as cards are. */
export function containsCardNumber(text: string): boolean {
  if (!hasThirteenDigits(text)) return false;
  for (const [run] of text.replace(KNOWN_IDENTIFIERS, ' ').matchAll(DIGIT_RUN)) {
    const digits = run.replace(/[ -]/g, '');
    if (digits.length === run.length) {
      if (isPan(digits)) return true;
      continue;
    }
    if (CARD_GROUPINGS.some((grouping) => grouping.test(run)) && isPan(digits)) return true;
    if (run.split(/[ -]/).some(isPan)) return true;
  }
  return false;
}

/** Property names repeat across requests (every line has the same keys): remember verdicts, within a bound. */
const nameVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 10_000;

export function isSecretName(name: string): boolean {
  const known = nameVerdicts.get(name);
  if (known !== undefined) return known;
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const verdict = SECRET_NAMES.has(normalized) || SECRET_NAME_PARTS.some((part) => normalized.includes(part));
  if (nameVerdicts.size < MAX_REMEMBERED_NAMES) nameVerdicts.set(name, verdict);
  return verdict;
}

function pathOf(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

/**
 * Find card data and credentials anywhere in a parsed JSON body. Issues name
 * the path only, never the value (it must not be echoed or logged).
 */
export function findSecrets(body: unknown): Issue[] {
  const issues: Issue[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (containsCardNumber(value)) {
        issues.push({ code: 'card_data_not_allowed', path, message: 'Card numbers must never be sent to this service' });
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, pathOf(path, index)));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const innerPath = pathOf(path, key);
        if (isSecretName(key)) {
          issues.push({
            code: 'credential_not_allowed',
            path: innerPath,
            message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
          });
        } else if (containsCardNumber(key)) {
          issues.push({ code: 'card_data_not_allowed', path: innerPath, message: 'Card numbers must never be sent to this service' });
        } else {
          visit(inner, innerPath);
        }
      }
    }
  };
  visit(body, '');
  return issues;
}
