import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSyncSearchHops, SYNC_SEARCH_HOPS } from './sync-search-hops.js';
import { SYNC_SEARCH_TOPICS } from './topics/sync-search.topics.js';
import { Topics, type TopicId } from './topology.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the hops of a sync search (docs/search.md)', () => {
  it.each(SYNC_SEARCH_HOPS.map((hop) => [hop.at, hop] as const))(
    '%s consumes what it takes and produces what it sends, as the topology declares',
    (_at, hop) => {
      if (typeof hop.in === 'string') expect(Topics[hop.in].consumers).toContain(hop.service);
      for (const out of hop.out)
        expect([out, Topics[out].producers]).toEqual([out, expect.arrayContaining([hop.service])]);
    },
  );

  it.each(SYNC_SEARCH_HOPS.map((hop) => [hop.at] as const))('%s: the file exists and holds the function', (at) => {
    const [path, fn] = at.split(':') as [string, string];
    expect(existsSync(join(root, path))).toBe(true);
    const [owner, method] = fn.split('.') as [string, string];
    const text = readFileSync(join(root, path), 'utf8');
    expect(text).toMatch(new RegExp(`class ${owner}\\b`));
    expect(text).toMatch(new RegExp(`\\b${method}\\(`));
  });

  it('names the service of the file it points at', () => {
    for (const hop of SYNC_SEARCH_HOPS) expect(hop.at.startsWith(`apps/${hop.service}/`)).toBe(true);
  });

  it('has, for every sync search topic, a hop that sends it and one that takes it', () => {
    const sent = new Set(SYNC_SEARCH_HOPS.flatMap((hop) => hop.out));
    const taken = new Set(SYNC_SEARCH_HOPS.flatMap((hop) => (typeof hop.in === 'string' ? [hop.in] : [])));
    for (const id of Object.keys(SYNC_SEARCH_TOPICS) as TopicId[]) {
      expect([id, sent.has(id), taken.has(id)]).toEqual([id, true, true]);
    }
  });

  it('renders one row per hop, topics by their names', () => {
    const table = renderSyncSearchHops().split('\n');
    expect(table).toHaveLength(SYNC_SEARCH_HOPS.length + 2);
    expect(table[0]).toBe('| service | file:function | topic in | topic out | state touched |');
    expect(table.some((row) => row.includes('| `own-index.query.requested` | `search.records.deduplicated` |'))).toBe(
      true,
    );
  });
});
