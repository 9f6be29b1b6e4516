/** This package's version (kept equal to package.json's by version.spec.ts); sent in `User-Agent`. */
export const CLIENT_VERSION = '0.1.0';
