import { ALL_TOPICS } from './topology.js';
import { renderServiceLinks, renderServiceTopics, renderTopicFlow } from './topology-docs.js';

describe('the topology as documentation', () => {
  it('names every topic in the table of who sends what to whom, the dead letters below it', () => {
    const links = renderServiceLinks();
    for (const topic of ALL_TOPICS) expect(links).toContain(`\`${topic.name}\``);
    expect(links).toContain('| gateway | search-orchestrator | `search.requested`');
    expect(links).not.toContain('(operators) |');
    expect(links).toContain('Not shown: `dead-letter`');
  });

  it('lists, per service, what it consumes and produces', () => {
    const row = renderServiceTopics()
      .split('\n')
      .find((line) => line.startsWith('| billing |'));
    expect(row).toContain('`billing.page.charge.requested`');
    expect(row).toContain('`search.page.charged`');
  });

  it('draws one edge per producer and consumer pair and names what it leaves out', () => {
    const flow = renderTopicFlow();
    expect(flow.startsWith('```mermaid\nflowchart LR\n')).toBe(true);
    expect(flow).toContain('search_orchestrator -- "');
    expect(flow).not.toContain('operators -- ');
    expect(flow).toContain('Not shown: `dead-letter`');
  });
});
