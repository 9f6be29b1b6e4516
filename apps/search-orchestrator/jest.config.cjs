module.exports = { ...require('../../jest.preset.cjs'), displayName: 'search-orchestrator', rootDir: __dirname };
