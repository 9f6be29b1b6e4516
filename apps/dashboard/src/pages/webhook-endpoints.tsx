import { useState } from 'preact/hooks';
import { post, type WebhookEndpoint, type WebhookEndpointRotated, type WebhookEndpointSecret } from '../api.js';
import { formatDate } from '../format.js';
import { SelectField, SubmitButton, WebhookUrlField } from '../forms.js';
import { PagedList, useCursorPages } from '../paging.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { Confirm, describe, ErrorNote } from '../ui.js';

/** How long the replaced secret keeps signing deliveries after a rotation (the API's default is a day). */
const OVERLAPS = [
  { seconds: 3_600, label: 'one hour' },
  { seconds: 86_400, label: 'one day' },
  { seconds: 604_800, label: 'one week' },
  { seconds: 0, label: 'none: the old secret stops at once' },
] as const;

type Pending = { kind: 'reveal'; url: string } | { kind: 'rotate'; url: string };
type Shown = { url: string; secret: string; note: string };

const usedBy = ({ used_by: u }: WebhookEndpoint) => {
  const parts = [
    u.watches > 0 ? `${u.watches} watch${u.watches === 1 ? '' : 'es'}` : '',
    u.async_searches > 0 ? `${u.async_searches} async search${u.async_searches === 1 ? '' : 'es'}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing yet';
};

export function WebhookEndpointsPage() {
  const endpoints = useCursorPages<WebhookEndpoint>('/webhook_endpoints');
  const [newUrl, setNewUrl] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [overlap, setOverlap] = useState<number>(86_400);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const start = (next: Pending) => {
    setError(null);
    setStatus(null);
    setOverlap(86_400);
    setPending(next);
  };

  const confirm = () => {
    const action = pending!;
    setPending(null);
    setBusy(true);
    const done = (secret: Shown, message: string) => {
      setShown(secret);
      setStatus(message);
      setBusy(false);
      endpoints.reload();
    };
    const failed = (problem: unknown) => {
      setError(
        `${action.kind === 'reveal' ? 'The secret could not be shown' : 'The secret could not be rotated'}: ` +
          `${describe(problem)}`,
      );
      setBusy(false);
    };
    if (action.kind === 'reveal') {
      post<WebhookEndpointSecret>('/webhook_endpoints/secret', { url: action.url }).then(
        (answer) =>
          done(
            { url: answer.url, secret: answer.secret, note: `Made ${formatDate(answer.created_at)}.` },
            `Secret of ${answer.url} shown.`,
          ),
        failed,
      );
    } else {
      post<WebhookEndpointRotated>('/webhook_endpoints/secret/rotate', {
        url: action.url,
        previous_expires_in_seconds: overlap,
      }).then((answer) => {
        const until = answer.previous_expires_at
          ? `The previous secret also signs deliveries until ${formatDate(answer.previous_expires_at)}.`
          : 'The previous secret no longer signs deliveries.';
        done(
          {
            url: answer.url,
            secret: answer.secret,
            note: `New secret, made ${formatDate(answer.created_at)}. ${until}`,
          },
          `Secret of ${answer.url} rotated. ${until}`,
        );
      }, failed);
    }
  };

  const copy = (secret: Shown) => {
    setError(null);
    // no clipboard outside a secure context (a plain-HTTP host other than localhost)
    if (!navigator.clipboard || !window.isSecureContext) {
      setError('This page cannot reach the clipboard here: select the secret and copy it yourself.');
      return;
    }
    navigator.clipboard.writeText(secret.secret).then(
      () => setStatus(`Secret of ${secret.url} copied to the clipboard.`),
      () => setError('The browser did not allow copying: select the secret and copy it yourself.'),
    );
  };

  return (
    <section aria-labelledby="page-title">
      <p>
        Every URL your watches and async searches deliver to has its own signing secret: deliveries carry its signature
        in
        <code>Service-Signature</code>, which your receiver checks with the whole secret, <code>whsec_</code> included.
        A rotation gives a new secret; for the overlap you choose, deliveries carry both signatures, so your receiver
        can switch when it is ready.
      </p>
      <form
        class="grid"
        onSubmit={(event) => {
          event.preventDefault();
          if (newUrl.trim()) start({ kind: 'reveal', url: newUrl.trim() });
        }}
      >
        <WebhookUrlField id="endpoint-url" label="Webhook URL not listed yet" value={newUrl} onValue={setNewUrl} />
        <div>
          <SubmitButton busy={busy} class="secondary">
            Get its secret
          </SubmitButton>
        </div>
      </form>
      {error && <ErrorNote message={error} />}
      {status && <p role="status">{status}</p>}
      {shown && (
        <article aria-labelledby="secret-title" data-testid="shown-secret">
          <h2 id="secret-title">Signing secret</h2>
          <p>
            Deliveries to <span class="endpoint-url">{shown.url}</span> are signed with:
          </p>
          <p class="new-key">
            <output aria-label={`Signing secret of ${shown.url}`}>{shown.secret}</output>
          </p>
          <p class="muted">
            {shown.note} Keep it on your receiver only; anyone who has it can sign deliveries as this service.
          </p>
          <div class="row-actions">
            <button type="button" onClick={() => copy(shown)}>
              Copy secret
            </button>
            <button type="button" class="secondary" onClick={() => setShown(null)}>
              Hide secret
            </button>
          </div>
        </article>
      )}
      <h2>Your webhook endpoints</h2>
      <PagedList
        pages={endpoints}
        what="webhook endpoints"
        empty={
          <>
            No webhook endpoints yet: create a watch or an async search with a webhook URL, or get a secret for a URL
            above.
          </>
        }
        pager="Endpoint pages"
      >
        {(rows) => (
          <Table testId="endpoints" columns={['URL', 'Used by', 'Secret', { muted: 'Action' }]}>
            {[...rows]
              .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
              .map((endpoint) => (
                <Row
                  key={endpoint.url}
                  data-endpoint-url={endpoint.url}
                  cells={[
                    <span class="endpoint-url">{endpoint.url}</span>,
                    usedBy(endpoint),
                    endpoint.secret_hint ? (
                      <>
                        <code>{endpoint.secret_hint}</code>
                        <br />
                        <span class="muted">
                          made <Time iso={endpoint.secret_created_at} />
                        </span>
                        {endpoint.previous_secret_expires_at && (
                          <>
                            <br />
                            <span class="muted">
                              previous one valid until <Time iso={endpoint.previous_secret_expires_at} />
                            </span>
                          </>
                        )}
                      </>
                    ) : (
                      <span class="muted">made on first delivery</span>
                    ),
                    <div class="row-actions">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Reveal secret of ${endpoint.url}`}
                        onClick={() => start({ kind: 'reveal', url: endpoint.url })}
                      >
                        Reveal
                      </button>
                      <button
                        type="button"
                        class="outline contrast"
                        aria-label={`Rotate secret of ${endpoint.url}`}
                        onClick={() => start({ kind: 'rotate', url: endpoint.url })}
                      >
                        Rotate
                      </button>
                    </div>,
                  ]}
                />
              ))}
          </Table>
        )}
      </PagedList>
      <Confirm
        open={pending !== null}
        title={pending?.kind === 'rotate' ? 'Rotate this secret?' : 'Reveal this secret?'}
        confirmLabel={pending?.kind === 'rotate' ? 'Rotate secret' : 'Reveal secret'}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      >
        {pending?.kind === 'rotate' ? (
          <>
            <p>
              Deliveries to <code>{pending.url}</code> will be signed with a new secret from now on. Put it on your
              receiver before the old one stops.
            </p>
            <SelectField
              id="rotate-overlap"
              label="The old secret keeps signing deliveries for"
              value={String(overlap)}
              options={OVERLAPS.map(({ seconds, label }) => ({ value: String(seconds), words: label }))}
              onValue={(seconds) => setOverlap(Number(seconds))}
            />
          </>
        ) : (
          <p>
            The signing secret of <code>{pending?.url}</code> will show on this screen. Make sure nobody else can see
            it.
          </p>
        )}
      </Confirm>
    </section>
  );
}
