import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, isLegacyToken } from '../../../server/crypto/token-cipher.js';

describe('token cipher (AES-256-GCM at rest)', () => {
  const key = randomBytes(32);
  const cipher = createTokenCipher(key);
  const ROW = '6f1c2d3e-0000-4000-8000-000000000001';

  it('when a token is encrypted, then the stored form hides it and decrypts back exactly', () => {
    const stored = cipher.encrypt('access-token-value', ROW);
    expect(stored).toMatch(/^v2\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('access-token-value');
    expect(cipher.decrypt(stored, ROW)).toBe('access-token-value');
    expect(cipher.encrypt('access-token-value', ROW)).not.toBe(stored);
  });

  it('when the ciphertext, the tag or the key is wrong, then decryption fails', () => {
    const [version, iv, tag, data] = cipher.encrypt('refresh-token', ROW).split('.') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.decrypt([version, iv, tag, flipped.toString('base64url')].join('.'), ROW)).toThrow();
    const truncatedTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => cipher.decrypt([version, iv, truncatedTag, data].join('.'), ROW)).toThrow();
    expect(() => createTokenCipher(randomBytes(32)).decrypt([version, iv, tag, data].join('.'), ROW)).toThrow();
    expect(() => createTokenCipher(randomBytes(16))).toThrow('token key must be 32 bytes');
  });

  it('when a ciphertext is copied into another row, then it does not decrypt there', () => {
    const stored = cipher.encrypt('refresh-token-of-row-1', ROW);
    expect(() => cipher.decrypt(stored, '6f1c2d3e-0000-4000-8000-000000000002')).toThrow();
    // Relabelling it as an unbound v1 value does not strip the binding either.
    expect(() => cipher.decrypt(stored.replace(/^v2\./, 'v1.'), '6f1c2d3e-0000-4000-8000-000000000002')).toThrow();
    expect(cipher.decrypt(stored, ROW)).toBe('refresh-token-of-row-1');
  });

  it('when a value was stored before row binding (v1, no AAD), then it still decrypts and is recognized as legacy', () => {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([c.update('legacy-token', 'utf8'), c.final()]);
    const legacy = ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    expect(isLegacyToken(legacy)).toBe(true);
    expect(cipher.decrypt(legacy, ROW)).toBe('legacy-token');
    expect(isLegacyToken(cipher.encrypt('x', ROW))).toBe(false);
  });
});
