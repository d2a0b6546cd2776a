/**
 * String values shaped like well-known secrets (docs/decisions.md): this
 * service's own API keys, Stripe-style secret, restricted and webhook-signing
 * keys, Square-style access tokens and application secrets, JSON Web Tokens
 * and `Bearer` credentials. Each shape starts at a token boundary and its
 * repeated part is last or followed by a literal that the repeated class
 * excludes, so matching stays linear in the length of the text.
 */
const SECRET_VALUE = new RegExp(
  [
    'svck_(?:sandbox|production)_[0-9a-f]{16}_[0-9a-f]{8}',
    '(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{8}',
    'whsec_[0-9A-Za-z+/]{16}',
    'sq0(?:atp|csp)-[0-9A-Za-z_-]{16}',
    'EAAA[0-9A-Za-z_-]{56}',
    'eyJ[0-9A-Za-z_-]{8,}\\.eyJ[0-9A-Za-z_-]{8}',
    'Bearer\\s[0-9A-Za-z._~+/-]{16}',
  ]
    .map((shape) => `(?<![0-9A-Za-z_-])${shape}`)
    .join('|'),
);

/** Shortest text any shape can match: shorter strings skip the regex. */
const SHORTEST_SECRET = 16;

export function containsSecretValue(text: string): boolean {
  return text.length >= SHORTEST_SECRET && SECRET_VALUE.test(text);
}
