import { useState } from 'preact/hooks';
import { post, type Event } from '../api.js';
import { eventSummary } from '../event-words.js';
import { PagedList, useCursorPages } from '../paging.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { MessageLine, useMessages } from '../ui.js';

/** Events per page of the feed (GET /v1/events reads up to 100). */
const PAGE_SIZE = 25;

/**
 * The event feed as GET /v1/events reads it: oldest first, each page after the last one read
 * (`since`). Replay re-sends an event to its webhook URL, as POST /v1/webhooks/replay does.
 */
export function EventsPage() {
  const feed = useCursorPages<Event>(`/events?limit=${PAGE_SIZE}`, 'since');
  const messages = useMessages();
  const [replaying, setReplaying] = useState<string | null>(null);

  const replay = (event: Event) => {
    if (replaying !== null) return;
    setReplaying(event.id);
    messages.begin();
    post<{ event_id: string; status: string }>('/deliveries/replay', { event_id: event.id }).then(
      () => {
        messages.succeed(`Replay of ${event.id} queued: Webhook deliveries shows its attempt.`);
        setReplaying(null);
      },
      (problem: unknown) => {
        messages.fail(problem);
        setReplaying(null);
      },
    );
  };

  return (
    <section aria-labelledby="page-title">
      <p>
        Every event of your watches and async searches, oldest first, as <code>GET /v1/events</code> reads them: the
        next page holds newer ones. Reading the feed and replaying are free.{' '}
        <button
          type="button"
          class="outline secondary"
          onClick={() => {
            messages.begin();
            feed.reload();
          }}
        >
          Refresh
        </button>
      </p>
      <MessageLine messages={messages} />
      <PagedList
        pages={feed}
        what="the event feed"
        empty={
          feed.onFirstPage
            ? 'No events yet: watches and async searches produce them.'
            : 'No newer events yet: refresh later.'
        }
        pager="Event feed pages"
      >
        {(events) => (
          <Table region="Event feed" testId="events" columns={['When', 'Event', 'About', 'Watch', { muted: 'Action' }]}>
            {events.map((event) => (
              <Row
                key={event.id}
                data-event-id={event.id}
                cells={[
                  <Time iso={event.created_at} />,
                  <>
                    <code class="event-type">{event.type}</code>
                    <br />
                    <small class="muted">{event.id}</small>
                  </>,
                  eventSummary(event),
                  event.watch_id ? <code>{event.watch_id}</code> : <span class="muted">none</span>,
                  <button
                    type="button"
                    class="secondary"
                    aria-busy={replaying === event.id ? 'true' : undefined}
                    // aria-disabled, not disabled, while one runs: a disabled button would drop the keyboard focus
                    aria-disabled={replaying !== null ? 'true' : undefined}
                    aria-label={`Replay event ${event.id}`}
                    onClick={() => replay(event)}
                  >
                    Replay
                  </button>,
                ]}
              />
            ))}
          </Table>
        )}
      </PagedList>
    </section>
  );
}
