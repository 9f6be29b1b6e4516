module.exports = { ...require('../../jest.preset.cjs'), displayName: 'matching', rootDir: __dirname };
