module.exports = { ...require('../../jest.preset.cjs'), displayName: 'webhook-targets', rootDir: __dirname };
