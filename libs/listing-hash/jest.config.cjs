module.exports = { ...require('../../jest.preset.cjs'), displayName: 'listing-hash', rootDir: __dirname };
