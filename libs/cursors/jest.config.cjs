module.exports = { ...require('../../jest.preset.cjs'), displayName: 'cursors', rootDir: __dirname };
