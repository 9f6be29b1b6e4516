module.exports = { ...require('../../jest.preset.cjs'), displayName: 'waterfall', rootDir: __dirname };
