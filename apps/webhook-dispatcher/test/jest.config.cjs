// End-to-end tests: a real HTTP receiver in the test process, events published to the running stack's Kafka.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'webhook-dispatcher-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 180000,
};
