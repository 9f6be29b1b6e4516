module.exports = { ...require('../../jest.preset.cjs'), displayName: 'deploy-manifests', rootDir: __dirname };
