module.exports = { ...require('../../jest.preset.cjs'), displayName: 'provider-adapters', rootDir: __dirname };
