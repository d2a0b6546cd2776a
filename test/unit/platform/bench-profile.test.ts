import { describe, expect, it } from 'vitest';
import { serviceFunctions, summariseProfile, topFunctions, type CpuProfile } from '../../../bench/profile-summary.js';

// A profile of the service's process as `node --cpu-prof` writes it: samples at 1010, 1020, 1030 and 1040 µs of the
// monotonic clock, alternating between a service function and a zod frame it calls.
const profile: CpuProfile = {
  startTime: 1000,
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2] },
    { id: 2, callFrame: { functionName: 'authenticate', url: 'file:///srv/dist/server/domain/auth/key.js', lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: 'parse', url: 'file:///srv/node_modules/zod/lib/types.js', lineNumber: 99 } },
  ],
  samples: [2, 3, 2, 3],
  timeDeltas: [10, 10, 10, 10],
};

describe('bench profile summary', () => {
  it('counts only the samples inside the measured window', () => {
    const window = { start: 1025, end: 1045 };
    expect(summariseProfile(profile, window)).toEqual([
      { category: 'auth (key lookup, hashing)', micros: 10, share: 0.5 },
      { category: 'validation (zod, contract schemas)', micros: 10, share: 0.5 },
    ]);
    expect(topFunctions(profile, window, 5)).toEqual([
      { fn: 'authenticate (file:///srv/dist/server/domain/auth/key.js:10)', micros: 10, share: 0.5 },
      { fn: 'parse (zod/lib/types.js:100)', micros: 10, share: 0.5 },
    ]);
  });

  it('counts a service function for every sample with it on the stack', () => {
    expect(serviceFunctions(profile, { start: 1025, end: 1045 }, 5)).toEqual([
      { fn: 'authenticate (file:///srv/dist/server/domain/auth/key.js:10)', micros: 20, share: 1 },
    ]);
  });

  it('counts every sample without a window', () => {
    expect(summariseProfile(profile).map((r) => r.micros)).toEqual([20, 20]);
  });
});
