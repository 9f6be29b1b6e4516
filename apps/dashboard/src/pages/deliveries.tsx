import { useState } from 'preact/hooks';
import { post, type EventDeliveries } from '../api.js';
import { formatDuration } from '../format.js';
import { PagedList, useCursorPages } from '../paging.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { Empty, MessageLine, useMessages } from '../ui.js';

export function DeliveriesPage() {
  const deliveries = useCursorPages<EventDeliveries>('/deliveries');
  const messages = useMessages();
  const [replaying, setReplaying] = useState<string | null>(null);

  return (
    <section aria-labelledby="page-title">
      <p>
        Every event with its deliveries (the first one and any replays) and each attempt. Replays are free.{' '}
        <button
          type="button"
          class="outline secondary"
          onClick={() => {
            messages.begin();
            deliveries.reload();
          }}
        >
          Refresh
        </button>
      </p>
      <MessageLine messages={messages} />
      <PagedList
        pages={deliveries}
        what="deliveries"
        empty="No events yet: watches and async searches with a webhook URL produce them."
        pager="Delivery pages"
      >
        {(events) =>
          events.map((event) => (
            <article key={event.event_id} data-event-id={event.event_id} aria-labelledby={`evt-${event.event_id}`}>
              <header>
                <h2 id={`evt-${event.event_id}`}>
                  <code class="event-type">{event.type}</code> <small class="muted event-id">{event.event_id}</small>
                </h2>
              </header>
              <p class="muted">
                <Time iso={event.created_at} /> · {event.webhook_url ?? 'feed only (no webhook URL)'}
                {event.watch_id ? ` · watch ${event.watch_id}` : ''}
              </p>
              {event.deliveries.length === 0 ? (
                <Empty>No delivery yet.</Empty>
              ) : (
                <Table region={`Deliveries of ${event.event_id}`} columns={['Delivery', 'Status', 'Attempts']}>
                  {event.deliveries.map((d) => (
                    <Row
                      key={d.id}
                      data-delivery-kind={d.kind}
                      cells={[
                        <>
                          {d.kind}{' '}
                          <small class="muted">
                            <Time iso={d.created_at} />
                          </small>
                        </>,
                        <>
                          {d.status}
                          {d.next_attempt_at ? (
                            <>
                              {' '}
                              (next <Time iso={d.next_attempt_at} />)
                            </>
                          ) : null}
                        </>,
                        d.attempts.length === 0 ? (
                          <span class="muted">none yet</span>
                        ) : (
                          <ol class="attempts">
                            {d.attempts.map((a) => (
                              <li key={a.number} data-attempt-outcome={a.outcome}>
                                {a.outcome}
                                {a.status_code !== null ? `, HTTP ${a.status_code}` : ''},{' '}
                                {formatDuration(a.duration_ms)}, <Time iso={a.started_at} />
                                {a.error ? ` (${a.error})` : ''}
                              </li>
                            ))}
                          </ol>
                        ),
                      ]}
                    />
                  ))}
                </Table>
              )}
              {event.deliveries_total > event.deliveries.length ? (
                <p class="muted">
                  The latest {event.deliveries.length} of {event.deliveries_total} deliveries; the earlier ones are not
                  shown.
                </p>
              ) : null}
              {event.webhook_url && (
                <button
                  type="button"
                  class="secondary"
                  aria-busy={replaying === event.event_id ? 'true' : undefined}
                  // aria-disabled, not disabled, while one runs: a disabled button would drop the keyboard focus
                  aria-disabled={replaying !== null ? 'true' : undefined}
                  aria-label={`Replay event ${event.event_id}`}
                  onClick={() => {
                    if (replaying !== null) return;
                    setReplaying(event.event_id);
                    messages.begin();
                    post<{ event_id: string; status: string }>('/deliveries/replay', {
                      event_id: event.event_id,
                    }).then(
                      () => {
                        messages.succeed(`Replay of ${event.event_id} queued; refresh to see its attempt.`);
                        setReplaying(null);
                        deliveries.reload();
                      },
                      (problem: unknown) => {
                        messages.fail(problem);
                        setReplaying(null);
                      },
                    );
                  }}
                >
                  Replay
                </button>
              )}
            </article>
          ))
        }
      </PagedList>
    </section>
  );
}
