module.exports = { ...require('../../jest.preset.cjs'), displayName: 'nest-kafka', rootDir: __dirname };
