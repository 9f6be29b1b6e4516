module.exports = { ...require('../../jest.preset.cjs'), displayName: 'docs-site', rootDir: __dirname };
