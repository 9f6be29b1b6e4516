module.exports = { ...require('../../jest.preset.cjs'), displayName: 'sim-world', rootDir: __dirname };
