import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../../server/http/middleware/request-id.js';

describe('request ids', () => {
  it('when more ids are made than one read of random bytes holds, then every id is new and carries 128 random bits as hex', () => {
    // 256 ids per read of the CSPRNG: 1,000 ids cross several refills.
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(1000);
  });
});
