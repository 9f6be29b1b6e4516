module.exports = { ...require('../../jest.preset.cjs'), displayName: 'job-filters', rootDir: __dirname };
