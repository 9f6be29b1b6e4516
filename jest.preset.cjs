// Shared jest set-up: TypeScript through SWC as native ES modules (NestJS 12 is ESM-only),
// workspace libs resolved to their sources so tests never need a prior build.
const path = require('node:path');

const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        swcrc: false,
        module: { type: 'es6' },
        jsc: {
          target: 'es2023',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
        },
      },
    ],
  },
  moduleNameMapper: {
    '^@jobs/([a-z0-9-]+)$': path.join(root, 'libs/$1/src/index.ts'),
    '^@jobs/([a-z0-9-]+)/testing$': path.join(root, 'libs/$1/src/testing/index.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Specs against the real PostgreSQL and Redis take seconds when the machine is loaded (the
  // unit phase runs projects in parallel, beside whatever else runs): 5 s failed them spuriously.
  testTimeout: 30_000,
};
