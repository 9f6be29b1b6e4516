// The replica phase of `npm test` (scripts/stack.mjs): specs run against two gateways beside two replicas of every
// consumer.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'gateway-replicas',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.replicas-spec.ts'],
  testTimeout: 300000,
};
