// Browser tests: playwright-core drives Debian's chromium against the running stack's gateway.
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'dashboard-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 300000,
};
