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
  'authtoken',
  'sessiontoken',
  'apitoken',
  'bearer',
  'clientsecret',
  'applicationsecret',
  'appsecret',
  'apisecret',
  'sharedsecret',
  'apikey',
  'secretkey',
  'signingsecret',
  'webhooksecret',
  'password',
  'passwd',
  'passphrase',
  'privatekey',
  'authorization',
  'credential',
];
/** Names that are secrets only as a whole word (as parts they are too common). */
const SECRET_NAMES = new Set(['pan', 'token', 'secret', 'pin']);
/** Any name ending like this names a secret (`csrfToken`, `paymentToken`, `oauthSecret`). */
const SECRET_NAME_ENDINGS = ['token', 'secret'];

/**
 * Property names repeat across requests (every line has the same keys), so
 * verdicts are remembered, within bounds that a hostile body cannot stretch:
 * only names up to 64 characters are remembered, and the cache is cleared
 * when it reaches 10,000 names or 256 KiB of name text (docs/decisions.md).
 */
const MAX_REMEMBERED_NAME_LENGTH = 64;
const MAX_REMEMBERED_NAMES = 10_000;
const MAX_REMEMBERED_CHARS = 128 * 1024; // UTF-16: 256 KiB
const nameVerdicts = new Map<string, boolean>();
let rememberedChars = 0;

function judgeName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    SECRET_NAMES.has(normalized) ||
    SECRET_NAME_ENDINGS.some((ending) => normalized.endsWith(ending)) ||
    SECRET_NAME_PARTS.some((part) => normalized.includes(part))
  );
}

export function isSecretName(name: string): boolean {
  if (name.length > MAX_REMEMBERED_NAME_LENGTH) return judgeName(name);
  const known = nameVerdicts.get(name);
  if (known !== undefined) return known;
  const verdict = judgeName(name);
  if (nameVerdicts.size >= MAX_REMEMBERED_NAMES || rememberedChars + name.length > MAX_REMEMBERED_CHARS) {
    nameVerdicts.clear();
    rememberedChars = 0;
  }
  nameVerdicts.set(name, verdict);
  rememberedChars += name.length;
  return verdict;
}

/** What the name cache holds, for tests that check its bounds. */
export function rememberedNameStats(): { names: number; chars: number; longest: number } {
  let longest = 0;
  for (const name of nameVerdicts.keys()) longest = Math.max(longest, name.length);
  return { names: nameVerdicts.size, chars: rememberedChars, longest };
}
