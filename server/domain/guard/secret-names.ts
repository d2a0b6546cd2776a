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

/** Whether a property name names a secret: its value is refused unread. */
export function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    SECRET_NAMES.has(normalized) ||
    SECRET_NAME_ENDINGS.some((ending) => normalized.endsWith(ending)) ||
    SECRET_NAME_PARTS.some((part) => normalized.includes(part))
  );
}
