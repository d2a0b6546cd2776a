import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';

describe('token cipher (AES-256-GCM at rest)', () => {
  const cipher = createTokenCipher(randomBytes(32));

  it('when a token is encrypted, then the stored form hides it and decrypts back exactly', () => {
    const stored = cipher.encrypt('access-token-value');
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('access-token-value');
    expect(cipher.decrypt(stored)).toBe('access-token-value');
    expect(cipher.encrypt('access-token-value')).not.toBe(stored);
  });

  it('when the ciphertext, the tag or the key is wrong, then decryption fails', () => {
    const [version, iv, tag, data] = cipher.encrypt('refresh-token').split('.') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.decrypt([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    const truncatedTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => cipher.decrypt([version, iv, truncatedTag, data].join('.'))).toThrow();
    expect(() => createTokenCipher(randomBytes(32)).decrypt([version, iv, tag, data].join('.'))).toThrow();
    expect(() => createTokenCipher(randomBytes(16))).toThrow('token key must be 32 bytes');
  });
});
