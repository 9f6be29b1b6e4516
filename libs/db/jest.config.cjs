// The spec is an integration test against the real PostgreSQL (DATABASE_URL's server, default
// 127.0.0.1:5432): it creates and drops its own throwaway database.
module.exports = { ...require('../../jest.preset.cjs'), displayName: 'db', rootDir: __dirname, testTimeout: 60_000 };
