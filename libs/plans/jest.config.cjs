module.exports = { ...require('../../jest.preset.cjs'), displayName: 'plans', rootDir: __dirname };
