export * from './primitives.js';
export * from './errors.js';
export * from './envelopes.js';
export * from './responses.js';
export * from './access.js';
