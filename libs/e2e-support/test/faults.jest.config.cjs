// Fault tests (scripts/faults.mjs, `npm run test:faults`): they kill services and restart the
// stack's own PostgreSQL, Redis and Kafka, so they run only against the stack faults.mjs builds,
// never in `npm test`'s e2e phase (a separate target and file pattern).
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'faults',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.fault-spec.ts'],
  testTimeout: 300000,
};
