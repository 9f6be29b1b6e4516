// End-to-end tests of the client: real HTTP against the running stack (scripts/stack.mjs sets
// BASE_URL, ADMIN_URL, ADMIN_TOKEN, ...), accounts and fixtures through @jobs/e2e-support.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'client-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 300000,
};
