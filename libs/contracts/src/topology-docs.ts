/**
 * The topology as documentation: the generated blocks of docs/architecture.md and the README.
 * `npm run docs:architecture` writes them; `architecture-doc.spec.ts` fails when a file's block
 * differs from what these functions render, so the documents follow topology.ts, never the
 * other way round.
 */
import { ALL_TOPICS, SERVICE_NAMES, renderTopicTable, type AnyTopic, type ServiceName } from './topology.js';

interface Link {
  readonly from: ServiceName;
  readonly to: ServiceName;
  readonly topics: AnyTopic[];
}

const code = (text: string) => `\`${text}\``;

/** Services that produce or consume at least one topic, in SERVICE_NAMES order. */
function servicesOnKafka(): ServiceName[] {
  return SERVICE_NAMES.filter((service) =>
    ALL_TOPICS.some((t) => t.producers.includes(service) || t.consumers.includes(service)),
  );
}

/** Producer → consumer pairs with the topics that go that way, in SERVICE_NAMES order of both ends. */
function links(): Link[] {
  const pairs = new Map<string, Link>();
  for (const topic of ALL_TOPICS) {
    for (const from of topic.producers) {
      for (const to of topic.consumers) {
        const key = `${from} ${to}`;
        const link = pairs.get(key) ?? { from, to, topics: [] };
        link.topics.push(topic);
        pairs.set(key, link);
      }
    }
  }
  const rank = (service: ServiceName) => SERVICE_NAMES.indexOf(service);
  return [...pairs.values()].sort((a, b) => rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to));
}

/** One line per topic no service consumes (the dead letters), which the flow leaves out. */
function unconsumedNotes(): string[] {
  return ALL_TOPICS.filter((t) => t.consumers.length === 0).map(
    (topic) =>
      `Not shown: ${code(topic.name)} (${topic.partitions} ` +
      `partitions), which ${topic.producers.join(', ')} produce and ` +
      `operators read.`,
  );
}

/** Table: which service sends which topics to which service (the flow in plain text). */
export function renderServiceLinks(): string {
  const rows = links().map(
    ({ from, to, topics }) => `| ${from} | ${to} | ${topics.map((t) => code(t.name)).join(', ')} |`,
  );
  return ['| from | to | topics |', '|---|---|---|', ...rows, '', ...unconsumedNotes()].join('\n');
}

/** Table: per service, the topics it consumes and produces. */
export function renderServiceTopics(): string {
  const rows = servicesOnKafka().map((service) => {
    const consumes = ALL_TOPICS.filter((t) => t.consumers.includes(service)).map((t) => code(t.name));
    const produces = ALL_TOPICS.filter((t) => t.producers.includes(service)).map((t) => code(t.name));
    return `| ${service} | ${consumes.join(', ') || '-'} | ${produces.join(', ') || '-'} |`;
  });
  return ['| service | consumes | produces |', '|---|---|---|', ...rows].join('\n');
}

/** Mermaid flowchart: services as nodes, one edge per producer → consumer pair labelled with its topics. */
export function renderTopicFlow(): string {
  const id = (service: ServiceName) => service.replaceAll('-', '_');
  const nodes = servicesOnKafka().map((service) => `  ${id(service)}["${service}"]`);
  const edges = links().map(
    ({ from, to, topics }) => `  ${id(from)} -- "${topics.map((t) => t.name).join('<br/>')}" --> ${id(to)}`,
  );
  return ['```mermaid', 'flowchart LR', ...nodes, ...edges, '```', '', ...unconsumedNotes()].join('\n');
}

/** The generated block of docs/architecture.md: who sends what to whom, the flow, topics per service, every topic. */
export function renderArchitectureTopology(): string {
  return [
    '### Who sends what to whom',
    '',
    renderServiceLinks(),
    '',
    '### Flow between services',
    '',
    renderTopicFlow(),
    '',
    '### Topics per service',
    '',
    renderServiceTopics(),
    '',
    '### Every topic',
    '',
    renderTopicTable(),
  ].join('\n');
}
