module.exports = { ...require('../../jest.preset.cjs'), displayName: 'webhook-dispatcher', rootDir: __dirname };
