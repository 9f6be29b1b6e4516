import { get, type Provider } from '../api.js';
import { formatDate } from '../format.js';
import { Empty, Loaded, Table, useLoad } from '../ui.js';

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
                <tr key={p.slug}>
                  <td>{p.name}</td>
                  <td>
                    <code>{p.slug}</code>
                  </td>
                  <td>{p.enabled_on_your_plan ? 'yes' : 'no'}</td>
                  <td class={`status-${p.status}`}>{p.status}</td>
                  <td>{formatDate(p.last_checked_at)}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </section>
  );
}
