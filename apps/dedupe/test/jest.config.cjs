// End-to-end tests: they drive the running stack over HTTP and Kafka (refreshes published as
// the planner would) and watch the real topics.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'dedupe-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 300000,
};
