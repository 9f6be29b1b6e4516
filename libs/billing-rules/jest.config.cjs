module.exports = { ...require('../../jest.preset.cjs'), displayName: 'billing-rules', rootDir: __dirname };
