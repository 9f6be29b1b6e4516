module.exports = { ...require('../../jest.preset.cjs'), displayName: 'provider-fetcher', rootDir: __dirname };
