module.exports = { ...require('../../jest.preset.cjs'), displayName: 'search-metadata', rootDir: __dirname };
