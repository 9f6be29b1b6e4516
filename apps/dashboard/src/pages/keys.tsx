import { useState } from 'preact/hooks';
import { del, get, post, type ApiKey } from '../api.js';
import { formatDate } from '../format.js';
import { Confirm, describe, Empty, ErrorNote, Loaded, useLoad } from '../ui.js';

export function KeysPage() {
  const [keys, reload] = useLoad(() => get<{ data: ApiKey[] }>('/keys'));
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <section aria-labelledby="page-title">
      <p>A new key works beside the old ones until you revoke the old one; a revoked key is refused by the API within a second.</p>
      <form
        class="grid"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          post<ApiKey & { key: string }>('/keys', { mode }).then(
            (key) => {
              setCreated(key);
              setBusy(false);
              reload();
            },
            (problem: unknown) => {
              setError(describe(problem));
              setBusy(false);
            },
          );
        }}
      >
        <label for="key-mode">
          Mode
          <select id="key-mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as 'live' | 'test')}>
            <option value="live">live (charged, real providers)</option>
            <option value="test">test (sandbox data, never charged)</option>
          </select>
        </label>
        <div>
          <button type="submit" aria-busy={busy ? 'true' : undefined} disabled={busy}>
            Create key
          </button>
        </div>
      </form>
      {error && <ErrorNote message={error} />}
      {created && (
        <article aria-labelledby="new-key-title" data-testid="new-key">
          <h2 id="new-key-title">Your new {created.mode} key</h2>
          <p>Copy it now: it is shown this once and never again.</p>
          <p class="new-key">
            <output aria-label="New API key">{created.key}</output>
          </p>
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </article>
      )}
      {status && <p role="status">{status}</p>}
      <Loaded load={keys} what="keys">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No keys yet.</Empty>
          ) : (
            <table>
              <caption class="muted">Keys of this account, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Prefix</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span class="muted">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>{key.mode}</td>
                    <td>{formatDate(key.created_at)}</td>
                    <td>{key.revoked_at ? `revoked ${formatDate(key.revoked_at)}` : 'active'}</td>
                    <td>
                      {!key.revoked_at && (
                        <button type="button" class="outline contrast" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.prefix}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <Confirm
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const key = revoking!;
          setRevoking(null);
          del<ApiKey>(`/keys/${encodeURIComponent(key.id)}`).then(
            () => {
              setStatus(`Key ${key.prefix}… revoked.`);
              reload();
            },
            (problem: unknown) => setError(describe(problem)),
          );
        }}
      >
        <p>
          Key <code>{revoking?.prefix}…</code> will be refused by the API within a second, everywhere. This cannot be undone. If this dashboard session was opened
          with it, you will be signed out.
        </p>
      </Confirm>
    </section>
  );
}
