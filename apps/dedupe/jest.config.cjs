module.exports = { ...require('../../jest.preset.cjs'), displayName: 'dedupe', rootDir: __dirname };
