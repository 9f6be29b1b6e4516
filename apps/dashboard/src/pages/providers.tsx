import { get, type Provider } from '../api.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { Empty, Loaded, useLoad } from '../ui.js';

export function ProvidersPage() {
  const [providers, reload] = useLoad(() => get<{ data: Provider[] }>('/providers'));
  return (
    <section aria-labelledby="page-title">
      <p>
        Status of every source, as <code>GET /v1/providers</code> reports it.{' '}
        <button type="button" class="outline secondary" onClick={reload}>
          Refresh
        </button>
      </p>
      <Loaded load={providers} what="providers">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No providers.</Empty>
          ) : (
            <Table region="Providers" columns={['Provider', 'Slug', 'On your plan', 'Status', 'Last checked']}>
              {data.map((p) => (
                <Row
                  key={p.slug}
                  cells={[
                    p.name,
                    <code>{p.slug}</code>,
                    p.enabled_on_your_plan ? 'yes' : 'no',
                    <span class={`status-${p.status}`}>{p.status}</span>,
                    <Time iso={p.last_checked_at} />,
                  ]}
                />
              ))}
            </Table>
          )
        }
      </Loaded>
    </section>
  );
}
