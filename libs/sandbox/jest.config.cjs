module.exports = { ...require('../../jest.preset.cjs'), displayName: 'sandbox', rootDir: __dirname };
