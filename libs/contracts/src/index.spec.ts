import * as contracts from './index.js';

describe('@jobs/contracts barrel', () => {
  it('exports the schemas of every area', () => {
    for (const name of [
      'JobSchema',
      'FiltersSchema',
      'JobSearchRequestSchema',
      'AsyncSearchCreateRequestSchema',
      'WatchCreateRequestSchema',
      'EventSchema',
      'ErrorEnvelopeSchema',
      'AdminAccountCreateRequestSchema',
      'AdminWorldJobCreateRequestSchema',
      'NormalizedProviderRecordSchema',
    ] as const) {
      expect([name, typeof contracts[name]?.safeParse]).toEqual([name, 'function']);
    }
  });

  it('exports each topic module as a namespace with ValueSchema and keyOf', () => {
    for (const ns of [
      contracts.SearchRequested,
      contracts.ProviderFetchRequested,
      contracts.ProviderRecordsFetched,
      contracts.OwnIndexQueryRequested,
      contracts.SearchRecordsDeduplicated,
      contracts.SearchPageGathered,
      contracts.BillingPageChargeRequested,
      contracts.SearchPageCharged,
      contracts.SearchResponded,
      contracts.DeadLetter,
    ]) {
      expect(typeof ns.ValueSchema.parse).toBe('function');
      expect(typeof ns.keyOf).toBe('function');
    }
  });

  it('exports the registry, the catalogue and the constants', () => {
    expect(contracts.Topics.SearchRequested.name).toBe('search.requested');
    expect(contracts.ERROR_CATALOG.unknown_filter.status).toBe(400);
    expect(contracts.SERVICE_VERSION).toBe('2026-10-01');
    expect(typeof contracts.renderTopicTable()).toBe('string');
  });
});
