// The local stack (`npm run up`, `npm test`, STACK_SLOT=N ... serve): its typed modules are in
// scripts/stack/, run by Node as they are (type stripping), no build first. Kept at this path for
// every script and document that calls `node scripts/stack.mjs <up|test|e2e|serve|down>`.
import './stack/main.ts';
