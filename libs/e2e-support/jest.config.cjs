module.exports = { ...require('../../jest.preset.cjs'), displayName: 'e2e-support', rootDir: __dirname };
