// End-to-end tests: they drive the running stack over HTTP and watch the real Kafka topics.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'search-orchestrator-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 300000,
};
