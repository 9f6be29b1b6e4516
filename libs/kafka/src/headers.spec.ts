import { appendStage, decodeHeaders, parseStages } from './headers.js';

describe('message headers', () => {
  it('decodes buffers, strings and repeated headers (last wins)', () => {
    expect(decodeHeaders({ a: Buffer.from('x'), b: 'y', c: [Buffer.from('1'), Buffer.from('2')], d: undefined })).toEqual({ a: 'x', b: 'y', c: '2' });
  });

  it('appends the producing stage once', () => {
    expect(appendStage([], 'gateway')).toEqual(['gateway']);
    expect(appendStage(['gateway'], 'search-orchestrator')).toEqual(['gateway', 'search-orchestrator']);
    expect(appendStage(['gateway', 'search-orchestrator'], 'search-orchestrator')).toEqual(['gateway', 'search-orchestrator']);
    // A service seen earlier in the path is a new hop when it handles the work again.
    expect(appendStage(['gateway', 'search-orchestrator', 'dedupe'], 'search-orchestrator')).toHaveLength(4);
  });

  it('parses the stage list', () => {
    expect(parseStages('gateway,dedupe')).toEqual(['gateway', 'dedupe']);
    expect(parseStages(undefined)).toEqual([]);
    expect(parseStages('')).toEqual([]);
  });
});
