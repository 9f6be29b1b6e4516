// End-to-end: the alert rules' and dashboards' metrics against the running stack (scripts/stack.mjs).
const preset = require('../../../jest.preset.cjs');
module.exports = {
  ...preset,
  displayName: 'deploy-manifests-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  testTimeout: 300000,
};
